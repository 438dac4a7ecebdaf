import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

/** Value of the Time Zone option meaning "the workflow's time zone". */
export const WORKFLOW_TIME_ZONE = 'workflow';

/** Every IANA time zone the runtime knows, after the workflow's own. */
export async function getTimeZones(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const intl = Intl as unknown as { supportedValuesOf?: (key: 'timeZone') => string[] };
	const zones = intl.supportedValuesOf?.('timeZone') ?? [];
	const list = zones.includes('UTC') ? zones : ['UTC', ...zones];
	return [
		{
			name: `Workflow Time Zone (${this.getTimezone()})`,
			value: WORKFLOW_TIME_ZONE,
			description: "The time zone in the workflow's settings",
		},
		...list.map((zone) => ({ name: zone, value: zone })),
	];
}
