// Advertising offline conversions stored on a call, "sent on the next synchronization cycle".
import { formatDateTime, isNumeric } from '../util.mts';
import { ServiceError } from './common.mts';
import type { OpHandler } from './common.mts';
import { findCall } from './cdr.mts';

const getAdsOfflineConversion: OpHandler = ({ state, params }) => {
	const uuid = params.str('call_uuid');
	if (uuid === '') throw new ServiceError(1015, 'call_uuid is required');
	if (!isNumeric(uuid)) throw new ServiceError(1116, 'call_uuid must be numeric');
	const row = findCall(state, uuid);
	const conversion = row ? state.cdr.conversions.get(row.id) : undefined;
	if (!row || !conversion)
		throw new ServiceError(
			1115,
			row ? `No offline conversion is stored on the call ${uuid}` : `No call ${uuid}`,
		);
	return {
		result: {
			call_uuid: row.cdr_uniqueid,
			conversion_value: conversion.conversion_value,
			update_time: conversion.update_time,
		},
	};
};

const setAdsOfflineConversion: OpHandler = ({ state, params }) => {
	const uuid = params.str('call_uuid');
	if (uuid === '') throw new ServiceError(1015, 'call_uuid is required');
	const value = params.str('conversion_value');
	if (value === '') throw new ServiceError(1016, 'conversion_value is required');
	if (!isNumeric(value)) throw new ServiceError(1017, 'conversion_value must be numeric');
	const row = findCall(state, uuid);
	if (!row) throw new ServiceError(1125, `No call found for ${uuid}`);
	const conversion = { conversion_value: Number(value), update_time: formatDateTime(new Date()) };
	state.cdr.conversions.set(row.id, conversion);
	return { result: { call_uuid: row.cdr_uniqueid, ...conversion } };
};

export const conversionOps: Record<string, OpHandler> = {
	get_ads_offline_conversion: getAdsOfflineConversion,
	set_ads_offline_conversion: setAdsOfflineConversion,
};
