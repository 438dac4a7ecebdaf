/**
 * Fields and outputs the user, tag and blacklist resources share: the virtual number resource
 * locator (list from get_virtualnum) and the output of write operations whose result the spec
 * does not show.
 */
import type { IDataObject, IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { InputChecks } from '../../../shared/checks';
import { checkVirtualnum } from '../../../shared/phones';
import type { VirtualnumAnswer } from '../../../shared/transport/virtualnumApi';
import { resultRows, virtualnumLocator as sharedVirtualnumLocator } from '../../../shared/virtualnums';

/** The `show` conditions of a field's displayOptions. */
export type Show = NonNullable<IDisplayOptions['show']>;

/** The shared virtual number locator (list from get_virtualnum, or typed), shown on `show`. */
export function virtualnumLocator(
	name: string,
	displayName: string,
	show: Show,
	extra: Partial<INodeProperties> = {},
): INodeProperties {
	return { ...sharedVirtualnumLocator({ name, displayName, displayOptions: { show } }), ...extra };
}

/** The value of a resource locator (or a plain string), trimmed. */
export function locatorValue(this: IExecuteFunctions, name: string, itemIndex: number): string {
	const value = this.getNodeParameter(name, itemIndex, '', { extractValue: true }) as unknown;
	if (value !== null && typeof value === 'object' && 'value' in value) return String((value as IDataObject).value ?? '').trim();
	return String(value ?? '').trim();
}

/** A virtual number from a locator: required, digits only (formatting dropped), at least 5 of them. */
export function readVirtualnum(this: IExecuteFunctions, name: string, field: string, check: InputChecks): string {
	return checkVirtualnum(check, field, locatorValue.call(this, name, check.itemIndex));
}

/**
 * Output of a write whose result body the spec does not show: what was asked (`echo`), then the
 * service's result fields (an object is spread, anything else kept as `result`), then its words.
 */
export function writeOutput(answer: VirtualnumAnswer, echo: IDataObject): IDataObject {
	const result = answer.result;
	const fields: IDataObject =
		result !== null && typeof result === 'object' && !Array.isArray(result)
			? (result as IDataObject)
			: result === undefined || result === null || result === ''
				? {}
				: { result: result as IDataObject };
	// The service's words go under `description`, unless the result has a field of that name.
	const words =
		fields.description === undefined
			? { description: answer.status.description }
			: { status_description: answer.status.description };
	return { success: true, ...echo, ...fields, ...words };
}

export { resultRows };

/** "Return All" / "Limit" of the Get Many operations, for services that return every row at once. */
export function returnAllFields(show: Show): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions: { show },
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { ...show, returnAll: [false] } },
		},
	];
}

export function applyLimit(this: IExecuteFunctions, rows: IDataObject[], itemIndex: number): IDataObject[] {
	if (this.getNodeParameter('returnAll', itemIndex, false) as boolean) return rows;
	const limit = this.getNodeParameter('limit', itemIndex, 50) as number;
	return rows.slice(0, Math.max(1, Math.floor(limit)));
}
