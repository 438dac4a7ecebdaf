import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

/** Value of the Time Zone option meaning "the workflow's time zone". */
export const WORKFLOW_TIME_ZONE = 'workflow';

/** Value of the Time Zone option meaning "the credential's Service Time Zone" (the default). */
export const SERVICE_TIME_ZONE_OPTION = 'service';

/** Every IANA time zone the runtime knows, after the service's and the workflow's. */
export async function getTimeZones(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const intl = Intl as unknown as { supportedValuesOf?: (key: 'timeZone') => string[] };
	const zones = intl.supportedValuesOf?.('timeZone') ?? [];
	const list = zones.includes('UTC') ? zones : ['UTC', ...zones];
	return [
		{
			name: 'Service Time Zone (From the Credential)',
			value: SERVICE_TIME_ZONE_OPTION,
			description: "The service's clock, as the credential sets it (Asia/Jerusalem by default)",
		},
		{
			name: `Workflow Time Zone (${this.getTimezone()})`,
			value: WORKFLOW_TIME_ZONE,
			description: "The time zone in the workflow's settings",
		},
		...list.map((zone) => ({ name: zone, value: zone })),
	];
}
