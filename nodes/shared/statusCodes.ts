/**
 * The one catalogue of the services' status codes and what they mean, as data.
 * Virtual number service: every code of the spec's error tables (docs/api/virtual-number-service.md),
 * per operation, plus a hint that tells the user what to do where the meaning alone does not.
 * A unit test walks the spec's tables through `describeStatusCode` and proves every (operation, code)
 * pair is here.
 */

interface StatusCodeInfo {
	meaning: string;
	/** What the user can do about it, in their words. */
	hint?: string;
	/** Not in the spec: chosen by this package and its sandbox (the spec shows no 5xxx codes). */
	assumed?: boolean;
	/** Not in the spec: reported by public integrations with the real service, and answered by the sandbox. */
	reported?: boolean;
}

type CodeTable = Record<number, StatusCodeInfo>;

/** The codes the package acts on by name; what each means is in the tables below. */
export const SUCCESS_CODE = 200;
/** Also the HTTP status of the services' plain-text refusals (UNAUTHORIZED_TEXTS). */
export const UNAUTHORIZED_CODE = 401;
/** HTTP status of a rate-limit refusal: the request was not taken (Retry-After says when to ask again). */
export const RATE_LIMITED_CODE = 429;
/** The service failed inside: a change it was asked for may or may not have been made. */
export const INTERNAL_ERROR_CODE = 999;
/** update_virtualnum: the number is not in this account. */
export const NOT_IN_ACCOUNT_CODE = 4019;
/** get_record_by_call_uuid: no recording exists for the call, also while it is not written yet. */
export const NO_RECORDING_CODE = 3002;
/** get_cdr_metadata_by_call_uuid: no metadata for the call. */
export const NO_METADATA_CODE = 1015;

/** Codes any operation may answer. */
const GENERAL_CODES: CodeTable = {
	200: { meaning: 'Success' },
	401: {
		meaning:
			'Authentication failure (unauthorized IP; missing, expired or invalid token; suspended account)',
		hint: "Check the credential's access token and that the IP of your n8n server is in the account's allowed IP list",
	},
	998: {
		meaning: 'The service parameter is missing',
		hint: 'This is a bug in the node: please report it',
	},
	999: {
		meaning: 'Internal error of the service',
		hint: 'Try again later; if it persists, contact the provider',
	},
};

const privateFieldsCreate = 'A private field is longer than 254 characters';
const privateFieldsUpdate = privateFieldsCreate;

const SERVICE_CODES: Record<string, CodeTable> = {
	cdr_query: {
		1011: { meaning: 'The SQL statement is missing' },
		1012: {
			meaning: 'The statement was rejected',
			hint: 'The reason is in the description: fix the statement',
		},
		1013: {
			meaning: 'No results, or the statement is invalid',
			hint: 'Widen the time range or check the statement',
		},
	},
	cdr_subunique_query: {
		1001: { meaning: 'Start time missing or invalid', hint: 'Use the format YYYY-MM-DD HH:mm:ss' },
		1002: { meaning: 'End time missing or invalid', hint: 'Use the format YYYY-MM-DD HH:mm:ss' },
		1003: { meaning: 'No results in that time range' },
	},
	get_record_by_call_uuid: {
		3001: { meaning: 'The call ID is missing' },
		3002: {
			meaning: 'No recording exists for this call',
			hint: 'Only recorded calls have a file: see the record percentage of the number',
		},
	},
	get_cdr_metadata_by_call_uuid: {
		1014: { meaning: 'The call ID is missing' },
		1015: { meaning: 'No metadata for this call' },
	},
	get_ads_offline_conversion: {
		1015: { meaning: 'The call ID is missing' },
		1116: { meaning: 'The call ID is not numeric' },
		1115: { meaning: 'No offline conversion for this call' },
	},
	set_ads_offline_conversion: {
		1015: { meaning: 'The call ID is missing' },
		1016: { meaning: 'The conversion value is missing' },
		1017: { meaning: 'The conversion value is not numeric' },
		1125: { meaning: 'No call found for this ID' },
		1126: { meaning: 'Saving the conversion failed', hint: 'Try again later' },
	},
	create_virtualnum_cdr: {
		2022: { meaning: 'The start time is not in the format YYYY-MM-DD HH:mm:ss' },
		2024: { meaning: 'The duration is not numeric or outside 1-3599 seconds' },
		2027: { meaning: 'The caller number is invalid', hint: 'It must be a valid Israeli number' },
		2028: {
			meaning: 'The destination is invalid, or the virtual number is missing or unknown',
		},
		2029: { meaning: 'The metadata is not valid JSON' },
		2031: { meaning: 'Saving the call record failed', hint: 'Try again later' },
	},
	get_virtualnum: {
		4030: {
			meaning: 'The filter field is not valid',
			hint: 'Pick one of the fields of a virtual number record',
		},
		4031: { meaning: 'No virtual numbers matched' },
	},
	get_available_virtualnum: {
		4050: { meaning: 'No numbers are available' },
		4051: { meaning: 'No numbers are available with that prefix', hint: 'Try another prefix' },
	},
	create_virtualnum: {
		4000: { meaning: 'The description is empty or longer than 199 characters' },
		4001: { meaning: 'The destination phones are empty, invalid or longer than 150 characters' },
		4002: { meaning: privateFieldsCreate },
		4003: { meaning: privateFieldsCreate },
		4004: { meaning: privateFieldsCreate },
		4005: { meaning: privateFieldsCreate },
		4006: { meaning: privateFieldsCreate },
		4007: { meaning: 'The callback URL is longer than 511 characters' },
		4008: { meaning: 'Allocating the number failed', hint: 'Try another number or prefix' },
		4009: { meaning: 'Allocating the number failed', hint: 'Try another number or prefix' },
		40010: { meaning: 'Callback When is outside 1-3' },
		40011: { meaning: 'Dial Option is outside 1-3' },
		40012: { meaning: 'Recording Announcement is outside 1-3' },
		40013: { meaning: 'Dial Timeout is outside 1-180 seconds' },
		40014: { meaning: 'Caller ID Shown is outside 1-3' },
		40015: { meaning: 'Callback Blocking is not 0, 1 or 2' },
	},
	update_virtualnum: {
		4010: { meaning: 'The description is empty or longer than 199 characters' },
		4011: { meaning: 'The virtual number is empty or shorter than 5 characters' },
		4012: {
			meaning: 'The destination phones are missing, invalid or longer than 150 characters',
			hint: 'The service needs the destination phones on every update',
		},
		4013: { meaning: privateFieldsUpdate },
		4014: { meaning: privateFieldsUpdate },
		4015: { meaning: privateFieldsUpdate },
		4016: { meaning: privateFieldsUpdate },
		4017: { meaning: privateFieldsUpdate },
		4018: { meaning: 'The virtual number is invalid' },
		4019: { meaning: 'The number is not in this account' },
		4020: { meaning: 'The update failed', hint: 'Try again later' },
		4021: { meaning: 'The update failed', hint: 'Try again later' },
		4022: { meaning: 'Callback When is invalid' },
		4023: { meaning: 'Dial Option is invalid' },
		4024: { meaning: 'Recording Announcement is invalid' },
		4025: { meaning: 'Dial Timeout is invalid' },
		4026: { meaning: 'Caller ID Shown is invalid' },
		4027: { meaning: 'Callback Blocking is invalid' },
	},
	release_virtualnum: {
		4040: { meaning: 'The virtual number is missing' },
		4041: { meaning: 'The number does not exist' },
		4042: { meaning: 'Releasing the number failed', hint: 'Try again later' },
		4043: { meaning: 'The number is invalid' },
	},
	restore_virtualnum: {
		4040: { meaning: 'The virtual number is missing' },
		4041: { meaning: 'The number is invalid' },
		4042: { meaning: 'The number was not released from this account' },
		4043: {
			meaning: 'The number is already active',
			hint: 'Nothing to restore: the number is active in the account',
		},
		4044: {
			meaning: 'The number cannot be restored to the account',
			hint: 'It was probably allocated to someone else meanwhile',
		},
	},
	create_virtualnum_call: {
		3011: { meaning: 'The virtual number is empty or invalid' },
		3012: {
			meaning: 'Calls cannot be placed for this account',
			hint: 'Ask the provider to enable outbound calls',
		},
		3013: { meaning: 'The destination is blacklisted', hint: 'Remove it from the blacklist first' },
		3014: { meaning: 'The virtual number is suspended', hint: 'Activate the number first' },
		3015: { meaning: 'Placing the call failed', hint: 'Try again later' },
		3016: { meaning: 'The virtual number does not exist' },
	},
	create_virtualnum_call_v2: {
		3031: { meaning: 'The virtual number is empty or invalid' },
		3032: { meaning: 'Destination 1 or destination 2 is empty or invalid' },
		3033: { meaning: 'Destination 1 is blacklisted', hint: 'Remove it from the blacklist first' },
		3038: { meaning: 'Destination 2 is blacklisted', hint: 'Remove it from the blacklist first' },
		3034: { meaning: 'Virtual number 1 is suspended', hint: 'Activate the number first' },
		3037: { meaning: 'Virtual number 2 is suspended', hint: 'Activate the number first' },
		3035: { meaning: 'Placing the call failed', hint: 'Try again later' },
		3036: { meaning: 'Virtual number 1 or 2 does not exist' },
		3039: { meaning: 'Outside the working hours of one of the numbers' },
	},
	click2call_link: {
		3017: { meaning: 'The virtual number is empty or invalid' },
		3018: { meaning: 'The destination is empty or invalid' },
		3019: { meaning: 'The virtual number does not exist' },
		3020: { meaning: 'The virtual number is suspended' },
		3021: { meaning: 'The destination is blacklisted' },
	},
	get_blacklist: {
		2001: { meaning: 'No blacklist entries matched' },
	},
	add_number_to_blacklist: {
		2021: { meaning: 'The caller number is missing, or has no digits' },
		2022: { meaning: 'The number is already in the blacklist' },
		2023: { meaning: 'Adding to the blacklist failed', hint: 'Try again later' },
	},
	remove_number_from_blacklist: {
		2011: { meaning: 'The caller number is empty or not numeric' },
		2012: {
			meaning: 'The number is not in the blacklist',
			hint: 'If it was blocked for one virtual number, set that virtual number too',
		},
		2013: { meaning: 'Removing from the blacklist failed', hint: 'Try again later' },
	},
	get_prompts_list: {
		9041: { meaning: 'The account has no voice prompts' },
	},
	download_prompt: {
		9011: { meaning: 'The prompt name is missing' },
		9013: {
			meaning: 'The prompt name has no valid characters',
			hint: 'Use letters, digits, - and _',
		},
		9012: { meaning: 'No prompt has that name', hint: 'Pick the prompt from the list' },
	},
	upload_prompt: {
		9021: { meaning: 'No file, or an empty file' },
		9022: {
			meaning: 'A prompt with this name exists',
			hint: 'Rename the file (the name is the part before the first dot) or delete the old prompt',
		},
		9023: {
			meaning: 'The file type is not supported',
			hint: 'Use WAV, MP3, AAC, FLAC, OGG, M4A, AMR or OPUS',
		},
		9024: { meaning: 'The file is larger than allowed (50 MB)' },
		9025: { meaning: 'Processing the file failed', hint: 'Check that the file is valid audio' },
	},
	delete_prompt: {
		9031: { meaning: 'The prompt name is missing' },
		9034: {
			meaning: 'The prompt name has no valid characters',
			hint: 'Use letters, digits, - and _',
		},
		9032: { meaning: 'The prompt does not exist' },
		9033: { meaning: 'Deleting the prompt failed', hint: 'Try again later' },
	},
	recording_studio: {
		9026: { meaning: 'The destination is empty or invalid' },
	},
	set_user: {
		7001: { meaning: 'The email is empty or longer than 99 characters' },
		7002: {
			meaning: 'The password is shorter than 8 characters or fails the password policy',
		},
		7003: { meaning: 'Creating the user failed', hint: 'Try again later' },
		7004: { meaning: 'Creating the user profile failed', hint: 'Try again later' },
		7005: { meaning: 'Creating the default permissions failed', hint: 'Try again later' },
	},
	update_user: {
		7011: { meaning: 'The user ID is missing' },
		7012: { meaning: 'The update failed', hint: 'Try again later' },
		7013: { meaning: 'The password fails the password policy' },
	},
	delete_user: {
		7021: { meaning: 'The user ID is missing' },
		7022: { meaning: 'The user does not exist' },
		7023: { meaning: 'Deleting the user failed', hint: 'Try again later' },
		7024: { meaning: 'Removing the number assignments failed', hint: 'Try again later' },
		7025: { meaning: 'Deleting the profile failed', hint: 'Try again later' },
		7026: { meaning: 'Deleting the permissions failed', hint: 'Try again later' },
	},
	get_user_by_id: {
		7031: { meaning: 'The user ID is missing' },
		7032: { meaning: 'The user does not exist' },
	},
	get_users: {
		7041: { meaning: 'The account has no users' },
	},
	set_ddi_to_user: {
		8001: { meaning: 'The user ID is missing' },
		8002: { meaning: 'The virtual number is missing' },
		8003: { meaning: 'The user does not exist' },
		8004: { meaning: 'The number does not exist' },
		8005: { meaning: 'The assignment failed', hint: 'Try again later' },
		8006: {
			meaning: 'The number is already assigned to this user',
			hint: 'Nothing to do: the assignment exists',
		},
	},
	get_ddi_by_user_id: {
		8011: { meaning: 'The user ID is missing' },
		8012: { meaning: 'No numbers are assigned to this user' },
	},
	delete_ddi_from_user_id: {
		8021: { meaning: 'The user ID is missing' },
		8022: { meaning: 'The virtual number is missing' },
		8023: { meaning: 'The user does not exist' },
		8024: { meaning: 'The number does not exist' },
		8025: { meaning: 'The number is not assigned to this user' },
		8026: { meaning: 'Removing the assignment failed', hint: 'Try again later' },
	},
	get_users_access_log: {
		6001: { meaning: 'No access log rows matched' },
	},
};

// The spec names the tag operations but shows no parameters or codes. 5001-5009 are the codes this
// package assumed (the sandbox's, see sandbox/README.md); 5072 and 5044 are the codes public
// integrations with the real service report for a taken name and a number already in the tag:
// the sandbox answers those for these two cases. Error messages say which is which.
const tagCodes: CodeTable = {
	5001: { meaning: 'The tag ID is missing or not numeric', assumed: true },
	5002: { meaning: 'The tag name is missing', assumed: true },
	5003: { meaning: 'The tag does not exist', assumed: true },
	5004: { meaning: 'A tag with this name exists', assumed: true },
	5005: { meaning: 'The virtual number is missing', assumed: true },
	5006: { meaning: 'The number is not in this account', assumed: true },
	5007: { meaning: 'The number is already in this tag', assumed: true },
	5008: { meaning: 'The number is not in this tag', assumed: true },
	5009: { meaning: 'No tags or members matched', assumed: true },
	5044: {
		meaning: 'The number is already in this tag',
		hint: 'Nothing to do: the number is a member',
		reported: true,
	},
	5072: {
		meaning: 'A tag with this name exists',
		hint: 'Choose another name, or use the existing tag',
		reported: true,
	},
};

const TAG_OPERATIONS = [
	'view_tags',
	'view_tag_by_id',
	'view_tag_by_name',
	'view_tags_by_virtualnum',
	'create_tag',
	'update_tag',
	'delete_tag',
	'add_member_to_tag',
	'remove_member_from_tag_id',
	'remove_member_from_tag_name',
	'view_virtualnum_members_by_tag_id',
	'get_members_by_tag_id',
	'get_members_by_tag_name',
] as const;

for (const operation of TAG_OPERATIONS) SERVICE_CODES[operation] = tagCodes;

/** The tag operations that list tags or members (an empty list is an answer: 5009). */
const TAG_VIEWS = TAG_OPERATIONS.filter(
	(operation) => operation.startsWith('view_') || operation.startsWith('get_'),
);

/**
 * "No results" codes: the operation worked and found nothing. An operation that lists things asks
 * the transport to read these as an empty result (`noResultsAsEmpty`), because an empty report is
 * an answer, not an error: the node then outputs no items.
 */
export const NO_RESULT_CODES: Record<string, readonly number[]> = {
	cdr_query: [1013],
	cdr_subunique_query: [1003],
	get_virtualnum: [4031],
	get_available_virtualnum: [4050, 4051],
	get_blacklist: [2001],
	get_prompts_list: [9041],
	get_users: [7041],
	get_ddi_by_user_id: [8012],
	get_users_access_log: [6001],
	...Object.fromEntries(TAG_VIEWS.map((operation) => [operation, [5009]])),
};

/** Meaning of a code for an operation: the operation's own table first, then the general codes. */
export function describeStatusCode(operation: string, code: number): StatusCodeInfo | undefined {
	return SERVICE_CODES[operation]?.[code] ?? GENERAL_CODES[code];
}

/** What a refusal of the caller means, and the one thing to do about it. */
export interface RefusalAdvice {
	meaning: string;
	hint: string;
	/**
	 * The text names the one cause: no other advice is added to it (the SMS service's reminder of
	 * its IP allow-list, which would contradict "the token and the IP are not the problem").
	 */
	soleCause?: true;
}

/** One advice per situation, whichever words the service used (docs/errors.md, "Refusals"). */
const REFUSAL_ADVICE = {
	ip: {
		meaning: 'The IP address of your n8n server is not in the allowed IP list of the account',
		hint: "Add the IP of your n8n server to the account's allowed IP list (its public address)",
		soleCause: true,
	},
	tokenMissing: {
		meaning: 'The service requires an access token and none was sent',
		hint: "Enter the account's API access token as the credential's Access Token",
	},
	tokenExpired: {
		meaning: 'The access token has expired',
		hint: "Create a new access token in the account and paste it as the credential's Access Token",
	},
	tokenInvalid: {
		meaning: 'The access token is not valid for this service',
		hint:
			"Check that the credential's Access Token is the token of this service (not the other " +
			"service's) and that it was copied whole",
	},
	suspended: {
		meaning: 'The account is suspended',
		hint: 'Contact the provider to reactivate the account; the token and the IP are not the problem',
		soleCause: true,
	},
	tokenRefused: {
		meaning: 'The access token was refused (missing, expired or not valid)',
		hint: "Check the credential's Access Token: it must be this service's token, copied whole",
	},
} satisfies Record<string, RefusalAdvice>;

/**
 * The refusal texts of both services, the contract's (HTTP 401) and those seen in the field (plain
 * text, any HTTP status, 200 included), first match wins: a suspended account before any other
 * token text, since the field words it as an invalid token.
 */
export const UNAUTHORIZED_TEXTS: Array<{ pattern: RegExp } & RefusalAdvice> = [
	{ pattern: /^Unauthorized - IP Address:'([^']*)' is not allowed/i, ...REFUSAL_ADVICE.ip },
	{ pattern: /^The ip address is not legal for this web service/i, ...REFUSAL_ADVICE.ip },
	{
		pattern: /^(Unauthorized - Account Suspended|Token\b.*\bsuspended)/i,
		...REFUSAL_ADVICE.suspended,
	},
	{
		pattern: /^(Unauthorized - Token Required|Token\W{0,3}(missing|required|empty))/i,
		...REFUSAL_ADVICE.tokenMissing,
	},
	{
		pattern: /^(Unauthorized - Token Expired|Token\W{0,3}expired)/i,
		...REFUSAL_ADVICE.tokenExpired,
	},
	{
		pattern: /^(Unauthorized - Invalid Token|Token\W{0,3}invalid)/i,
		...REFUSAL_ADVICE.tokenInvalid,
	},
	{ pattern: /^Token\b/i, ...REFUSAL_ADVICE.tokenRefused },
];
