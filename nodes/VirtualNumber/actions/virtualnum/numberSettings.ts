/**
 * The settings of a virtual number (create_virtualnum / update_virtualnum) in the user's words,
 * and their translation into the service's parameters with every limit of the spec checked
 * before anything is sent.
 */
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { LIMITS, type InputChecks } from '../../../shared/checks';
import { VN_LIMITS } from '../../../shared/limits';
import { checkPhoneList } from '../../../shared/phoneLists';

const DAYS = [
	'sunday',
	'monday',
	'tuesday',
	'wednesday',
	'thursday',
	'friday',
	'saturday',
] as const;

/** Week order, Sunday first, as the service counts the hours. */
const DAY_OPTIONS: INodePropertyOptions[] = DAYS.map((day) => ({
	name: day[0].toUpperCase() + day.slice(1),
	value: day,
}));

const pad = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
const FROM_HOURS: INodePropertyOptions[] = Array.from({ length: 24 }, (_, hour) => ({
	name: pad(hour),
	value: hour,
}));
const TO_HOURS: INodePropertyOptions[] = Array.from({ length: 24 }, (_, index) => ({
	name: index === 23 ? '24:00 (End of Day)' : pad(index + 1),
	value: index + 1,
}));

const PRIVATE_FIELD_OPTIONS: INodePropertyOptions[] = Array.from(
	{ length: VN_LIMITS.privateField.count },
	(_, index) => ({
		name: `Private Field ${index + 1}`,
		value: `private_field${index + 1}`,
	}),
);

const WORKING_HOURS_LAYOUT =
	'one character per hour of the week, starting Sunday 00:00-01:00 and ending ' +
	"Saturday 23:00-24:00, '1' open and '0' closed";

const descriptionField: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	default: '',
	description: `Name of the number shown in reports, at most ${VN_LIMITS.description.maxLength} characters`,
};

const destinationField: INodeProperties = {
	displayName: 'Destination Phones',
	name: 'callDestinationPhone',
	type: 'string',
	default: '',
	placeholder: 'e.g. 0501234567,0527654321',
	description:
		`Numbers that receive the calls, separated by commas, at most ${VN_LIMITS.callDestinationPhone.maxLength} ` +
		`characters`,
};

/** Optional settings, shared by Create ("Additional Fields") and Update ("Update Fields"). */
const settingFields: INodeProperties[] = [
	{
		displayName: 'Callback Blocking',
		name: 'disallowCallback',
		type: 'options',
		options: [
			{ name: 'Allowed', value: 0 },
			{ name: 'Blocked (Account Setting 1)', value: 1 },
			{ name: 'Blocked (Account Setting 2)', value: 2 },
		],
		default: 0,
		description:
			'Whether callbacks are blocked; the two blocked values act as defined in the account settings',
	},
	{
		displayName: 'Callback URL',
		name: 'callbackUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://example.com/webhook',
		description:
			`Address the service calls at call start and/or end, at most ${LIMITS.callbackUrl.maxLength} ` +
			`characters. A Virtual Number Trigger sets this for you.`,
	},
	{
		displayName: 'Callback When',
		name: 'callbackUrlOption',
		type: 'options',
		options: [
			{ name: 'Both', value: 3, description: 'At call start and at call end' },
			{ name: 'Call End', value: 2, description: 'The default of the service' },
			{ name: 'Call Start', value: 1 },
		],
		default: 2,
		description: 'When the service calls the callback URL',
	},
	{
		displayName: 'Caller ID Shown',
		name: 'expose',
		type: 'options',
		options: [
			{ name: 'Anonymous', value: 3 },
			{ name: 'Caller', value: 2, description: "The caller's number" },
			{ name: 'Virtual Number', value: 1, description: 'The default of the service' },
		],
		default: 1,
		description: 'Which number the answering party sees',
	},
	{
		displayName: 'Dial Option',
		name: 'dialOption',
		type: 'options',
		options: [
			{
				name: 'Call Router',
				value: 3,
				description: 'Route the call through the IVR (call router)',
			},
			{
				name: 'Sequential',
				value: 2,
				description: 'Ring the destination phones one after the other (hunt)',
			},
			{
				name: 'Simultaneous',
				value: 1,
				description: 'Ring all destination phones at once (the default)',
			},
		],
		default: 1,
		description: 'How the destination phones are rung',
	},
	{
		displayName: 'Dial Timeout (Seconds)',
		name: 'dialTimeoutInSec',
		type: 'number',
		typeOptions: {
			minValue: VN_LIMITS.dialTimeoutInSec.min,
			maxValue: VN_LIMITS.dialTimeoutInSec.max,
		},
		default: 30,
		description:
			`How long a destination rings, ${VN_LIMITS.dialTimeoutInSec.min}-${VN_LIMITS.dialTimeoutInSec.max} ` +
			`seconds. Without it the account's setting applies.`,
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		description: 'Address that receives notifications about calls to the number',
	},
	{
		displayName: 'Greeting to Caller',
		name: 'greetingOut',
		type: 'string',
		default: '',
		description: 'Name of the voice prompt played to the caller',
	},
	{
		displayName: 'Internal Greeting',
		name: 'greetingIn',
		type: 'string',
		default: '',
		description: 'Name of the internal voice prompt (greeting_in)',
	},
	{
		displayName: 'Out-of-Hours Destination',
		name: 'outOfTimeDestinationPhone',
		type: 'string',
		default: '',
		description: 'Number that receives the calls outside the working hours',
	},
	{
		displayName: 'Private Fields',
		name: 'privateFields',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Private Field',
		default: {},
		description:
			`Free fields stored on the number (private_field1 to private_field${VN_LIMITS.privateField.count}), ` +
			`at most ${VN_LIMITS.privateField.maxLength} characters each`,
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					{
						displayName: 'Field',
						name: 'name',
						type: 'options',
						options: PRIVATE_FIELD_OPTIONS,
						default: 'private_field1',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
					},
				],
			},
		],
	},
	{
		displayName: 'Recording Announcement',
		name: 'recordOption',
		type: 'options',
		options: [
			{ name: 'Answering Party', value: 2 },
			{ name: 'Both', value: 3 },
			{ name: 'Caller', value: 1 },
		],
		default: 1,
		description:
			'Who hears that the call is recorded; applies only while recording is on (Recording Percentage above 0)',
	},
	{
		displayName: 'Recording Percentage',
		name: 'recordPercentage',
		type: 'number',
		typeOptions: {
			minValue: VN_LIMITS.recordPercentage.min,
			maxValue: VN_LIMITS.recordPercentage.max,
		},
		default: 100,
		description: 'Share of the calls that are recorded, 0-100; 0 turns recording off',
	},
	{
		displayName: 'Ringback Tone',
		name: 'ringbackTone',
		type: 'string',
		default: '',
		description: 'File name of the tone the caller hears while the destination rings',
	},
	{
		displayName: 'SMS Destination Phone',
		name: 'smsDestinationPhone',
		type: 'string',
		default: '',
		description: 'Number(s) that receive SMS notifications about calls',
	},
	{
		displayName: 'Status',
		name: 'activeStatus',
		type: 'options',
		options: [
			{ name: 'Active', value: 1 },
			{ name: 'Suspended', value: 0 },
		],
		default: 1,
		description: 'A suspended number keeps its settings but takes no calls',
	},
	{
		displayName: 'Working Hours',
		name: 'workingHours',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Opening Period',
		default: {},
		description:
			`When the number takes calls; every hour outside the periods is closed ` +
			`(calls then go to the Out-of-Hours Destination). The node builds the service's ` +
			`168-character pattern from the periods: ${WORKING_HOURS_LAYOUT}. Times ` +
			`are whole hours in the account's time zone. A period whose To is earlier ` +
			`than its From runs past midnight into the next day.`,
		options: [
			{
				displayName: 'Period',
				name: 'period',
				values: [
					{
						displayName: 'Days',
						name: 'days',
						type: 'multiOptions',
						options: DAY_OPTIONS,
						default: [],
						description: 'Days this period applies to',
					},
					{
						displayName: 'From',
						name: 'from',
						type: 'options',
						options: FROM_HOURS,
						default: 9,
						description: 'Opening hour',
					},
					{
						displayName: 'To',
						name: 'to',
						type: 'options',
						options: TO_HOURS,
						default: 17,
						description: 'Closing hour',
					},
				],
			},
		],
	},
	{
		displayName: 'Working Hours Pattern',
		name: 'workingHoursPattern',
		type: 'string',
		default: '',
		placeholder: 'e.g. 000000000111111110000000… (168 characters)',
		description:
			`The raw working_hours value, exactly ${VN_LIMITS.workingHours.length} ` +
			`characters: ${WORKING_HOURS_LAYOUT}. Any other length is refused (the ` +
			`service would silently ignore it). Use either this or Working Hours.`,
	},
];

/** Create's optional fields. */
export const createSettingFields: INodeProperties[] = settingFields;

/**
 * Update's fields: the two the service requires on every update become optional (read from the
 * number when left out).
 */
export const updateSettingFields: INodeProperties[] = [
	...settingFields,
	{
		...descriptionField,
		description:
			`${descriptionField.description}. Left out: the current description is ` +
			`sent again (the service requires it on every update).`,
	},
	{
		...destinationField,
		description:
			`${destinationField.description}. Left out: the current destinations are ` +
			`sent again (the service requires them on every update).`,
	},
].sort((a, b) => a.displayName.localeCompare(b.displayName));

export const requiredDescriptionField: INodeProperties = { ...descriptionField, required: true };
export const requiredDestinationField: INodeProperties = { ...destinationField, required: true };

/** The 168-character pattern of a set of opening periods. */
function buildWorkingHours(
	periods: IDataObject[],
	checks: InputChecks,
	field = 'Working Hours',
): string {
	const hours: string[] = new Array(VN_LIMITS.workingHours.length).fill('0');
	if (periods.length === 0) checks.fail(field, 'needs at least one opening period');
	periods.forEach((period, index) => {
		const label = `${field} (period ${index + 1})`;
		const days = Array.isArray(period.days) ? (period.days as string[]) : [];
		if (days.length === 0) checks.fail(label, 'needs at least one day');
		const from = checks.integerInRange(`${label}: From`, period.from, 0, 23);
		const to = checks.integerInRange(`${label}: To`, period.to, 1, 24);
		if (from === to)
			checks.fail(
				label,
				'opens and closes at the same hour; use 00:00 to 24:00 for a whole day',
				`${pad(from)}-${pad(to)}`,
			);
		for (const day of days) {
			const dayIndex = DAYS.indexOf(day as (typeof DAYS)[number]);
			if (dayIndex < 0) checks.fail(`${label}: Days`, `must be one of ${DAYS.join(', ')}`, day);
			const open = (start: number, end: number) => {
				for (let hour = start; hour < end; hour++)
					hours[hour % VN_LIMITS.workingHours.length] = '1';
			};
			const base = dayIndex * 24;
			if (to > from) open(base + from, base + to);
			else open(base + from, base + 24 + to); // past midnight; Saturday night wraps to Sunday morning
		}
	});
	return hours.join('');
}

const CHOICES: Record<string, readonly number[]> = {
	disallowCallback: [0, 1, 2],
	callbackUrlOption: [1, 2, 3],
	expose: [1, 2, 3],
	dialOption: [1, 2, 3],
	recordOption: [1, 2, 3],
	activeStatus: [0, 1],
};

const PARAM_NAMES: Record<string, string> = {
	description: 'description',
	callDestinationPhone: 'call_destination_phone',
	disallowCallback: 'disallow_callback',
	callbackUrl: 'callback_url',
	callbackUrlOption: 'callback_url_option',
	expose: 'expose',
	dialOption: 'dial_option',
	dialTimeoutInSec: 'dial_timeout_in_sec',
	email: 'email',
	greetingOut: 'greeting_out',
	greetingIn: 'greeting_in',
	outOfTimeDestinationPhone: 'out_of_time_destination_phone',
	recordOption: 'record_option',
	recordPercentage: 'record_percentage',
	ringbackTone: 'ringback_tone',
	smsDestinationPhone: 'sms_destination_phone',
	activeStatus: 'active_status',
};

function displayNameOf(name: string): string {
	return (
		[...settingFields, descriptionField, destinationField].find((field) => field.name === name)
			?.displayName ?? name
	);
}

/** Settings that hold phone numbers (comma separated), sent as digits. */
const PHONE_LIST_SETTINGS = [
	'callDestinationPhone',
	'outOfTimeDestinationPhone',
	'smsDestinationPhone',
];

/**
 * Destination phones as the service gets them: each number as digits (a speed dial *1234 as it
 * is), separated by commas; the 150-character limit applies to what is sent.
 */
export function destinationList(checks: InputChecks, field: string, value: unknown): string {
	const list = checkPhoneList(checks, field, value, { speedDial: true }).join(',');
	return checks.maxLength(field, list, VN_LIMITS.callDestinationPhone.maxLength);
}

/** One plain setting (not the private fields or the working hours) as the service's value; undefined when not sent. */
function settingValue(
	checks: InputChecks,
	name: string,
	raw: unknown,
): string | number | undefined {
	const label = displayNameOf(name);
	if (PARAM_NAMES[name] === undefined) checks.fail(name, 'is not a setting of a virtual number');
	const allowed = CHOICES[name];
	if (allowed) {
		const value = Number(raw);
		if (!allowed.includes(value))
			checks.fail(label, `must be one of the listed choices (${allowed.join(', ')})`, raw);
		return value;
	}
	if (name === 'dialTimeoutInSec')
		return checks.integerInRange(
			label,
			raw,
			VN_LIMITS.dialTimeoutInSec.min,
			VN_LIMITS.dialTimeoutInSec.max,
		);
	if (name === 'recordPercentage')
		return checks.integerInRange(
			label,
			raw,
			VN_LIMITS.recordPercentage.min,
			VN_LIMITS.recordPercentage.max,
		);
	const text = String(raw ?? '').trim();
	if (text === '') return undefined;
	if (name === 'description') checks.maxLength(label, text, VN_LIMITS.description.maxLength);
	if (name === 'callbackUrl') checks.maxLength(label, text, LIMITS.callbackUrl.maxLength);
	return PHONE_LIST_SETTINGS.includes(name) ? destinationList(checks, label, text) : text;
}

/** private_field1 to 10 from the Private Fields list: each once, at most 254 characters; empty ones not sent. */
function privateFieldParams(checks: InputChecks, entries: IDataObject[]): IDataObject {
	const params: IDataObject = {};
	const seen = new Set<string>();
	for (const entry of entries) {
		const name = String(entry.name ?? '');
		const label = PRIVATE_FIELD_OPTIONS.find((option) => option.value === name)?.name ?? name;
		checks.oneOf(
			'Private Fields: Field',
			name,
			PRIVATE_FIELD_OPTIONS.map((option) => String(option.value)),
		);
		if (seen.has(name)) checks.fail(`Private Fields: ${label}`, 'is set twice');
		seen.add(name);
		const value = String(entry.value ?? '');
		checks.maxLength(`Private Fields: ${label}`, value, VN_LIMITS.privateField.maxLength);
		if (value !== '') params[name] = value;
	}
	return params;
}

/**
 * working_hours from the Working Hours periods or the raw pattern (only one of them); undefined
 * when neither is set.
 */
function workingHoursParam(checks: InputChecks, fields: IDataObject): string | undefined {
	const periods = ((fields.workingHours as IDataObject | undefined)?.period ?? []) as IDataObject[];
	const pattern = String(fields.workingHoursPattern ?? '');
	if (periods.length > 0 && pattern.trim() !== '') {
		checks.fail('Working Hours', 'and Working Hours Pattern cannot both be set: use one of them');
	}
	if (fields.workingHours !== undefined && pattern.trim() === '')
		return buildWorkingHours(periods, checks);
	if (fields.workingHoursPattern !== undefined)
		return checks.exactLength('Working Hours Pattern', pattern, VN_LIMITS.workingHours.length);
	return undefined;
}

const COMPOSED_SETTINGS = ['privateFields', 'workingHours', 'workingHoursPattern'];

/**
 * The service's parameters for the settings the user set, each checked against the spec's
 * limits. Text fields left empty are not sent (the service keeps its value).
 */
export function settingsToParams(fields: IDataObject, checks: InputChecks): IDataObject {
	const params: IDataObject = {};
	for (const [name, raw] of Object.entries(fields)) {
		if (COMPOSED_SETTINGS.includes(name)) continue;
		const value = settingValue(checks, name, raw);
		if (value !== undefined) params[PARAM_NAMES[name]] = value;
	}
	Object.assign(
		params,
		privateFieldParams(
			checks,
			((fields.privateFields as IDataObject | undefined)?.field ?? []) as IDataObject[],
		),
	);
	const workingHours = workingHoursParam(checks, fields);
	if (workingHours !== undefined) params.working_hours = workingHours;
	return params;
}
