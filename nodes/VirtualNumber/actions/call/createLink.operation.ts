import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import { checkPhoneToSend } from '../../../shared/phones';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { VIRTUALNUM_CREDENTIAL, virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { virtualnumLocator } from '../../../shared/virtualnums';
import { readVirtualnum, resultObject } from '../../helpers/utils';
import { VN_LIMITS } from '../../../shared/limits';

const properties: INodeProperties[] = [
	{
		displayName:
			'The service still creates and signs the link, but opening it currently ' +
			'places no call (the service has deprecated click-to-call links). Use Click ' +
			'to Call to place a call.',
		name: 'linkNotice',
		type: 'notice',
		default: '',
	},
	virtualnumLocator({ description: 'The number presented to the destination' }),
	{
		displayName: 'Destination',
		name: 'destination',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 0501234567',
		description:
			'The phone number the link is for. Note: opening the link currently places no call.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Call First',
				name: 'firstTarget',
				type: 'options',
				options: [
					{ name: 'Destination', value: 'destination', description: 'The default of the service' },
					{ name: 'Virtual Number', value: 'virtualnum' },
				],
				default: 'destination',
				description: 'Which side the call would ring first',
			},
			{
				displayName: 'Valid for (Days)',
				name: 'expireDays',
				type: 'number',
				typeOptions: { minValue: VN_LIMITS.click2callExpireDays.min },
				default: 365, // the service's default (VN_LIMITS.click2callExpireDays)
				description: 'How long the link stays valid',
			},
		],
	},
];

export const option: OperationOption = {
	name: 'Create Click-to-Call Link',
	description: 'Create a signed public link (opening it currently places no call)',
	action: 'Create a click to call link',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['call'], operation: ['createLink'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const virtualnum = readVirtualnum.call(this, checks);
	const destination = await checkPhoneToSend.call(
		this,
		VIRTUALNUM_CREDENTIAL,
		checks,
		'Destination',
		this.getNodeParameter('destination', itemIndex, ''),
	);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const params: IDataObject = { virtualnum, destination };
	if (options.firstTarget !== undefined) {
		params.first_target = checks.oneOf('Call First', String(options.firstTarget), [
			'destination',
			'virtualnum',
		]);
	}
	if (options.expireDays !== undefined) {
		params.expire_days = checks.integerInRange(
			'Valid for (Days)',
			options.expireDays,
			VN_LIMITS.click2callExpireDays.min,
			Number.MAX_SAFE_INTEGER,
		);
	}
	const answer = await virtualnumRequest.call(this, {
		service: 'click2call_link',
		params,
		itemIndex,
	});
	// The result is "the public URL of the link": an object with `url`, or the URL itself.
	const result = resultObject(answer.result);
	const url =
		typeof result.url === 'string'
			? result.url
			: typeof result.result === 'string'
				? result.result
				: undefined;
	return this.helpers.returnJsonArray({
		...result,
		...(url ? { url } : {}),
		virtualnum,
		destination,
	});
};
