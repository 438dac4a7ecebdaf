/** The call-record export: Call Record → Query of 10,000 rows, against fetch + JSON.parse of the same statement. */
import { measure, type Measurement } from '../measure.mts';

export type CdrTask =
	| { kind: 'cdrNode'; vnUrl: string; token: string; limit: number; from: string; until: string }
	| { kind: 'cdrFetch'; vnUrl: string; token: string; sql: string };

export async function cdrNode(task: Extract<CdrTask, { kind: 'cdrNode' }>): Promise<Measurement> {
	const { runWorkflow } = await import('../../harness/engine.mts');
	const query = async (limit: number) => {
		const result = await runWorkflow({
			nodes: [
				{
					name: 'Query',
					type: 'virtualNumber',
					parameters: {
						resource: 'cdr',
						operation: 'query',
						queryMode: 'builder',
						// No column chosen: every column of the view, as an export to a CRM wants.
						columns: [],
						from: task.from,
						to: task.until,
						order: 'ASC',
						returnAll: false,
						limit,
					},
				},
			],
			credentials: { virtualnumApi: { baseUrl: task.vnUrl, accessToken: task.token } },
		});
		if (result.error) throw new Error(`the query failed: ${result.error.message}`);
		return result.items('Query').length;
	};
	return await measure(
		() => query(200),
		async () => ({ produced: await query(task.limit) }),
	);
}

/** The baseline: the same statement with fetch, the answer parsed with JSON.parse. */
export async function cdrFetch(task: Extract<CdrTask, { kind: 'cdrFetch' }>): Promise<Measurement> {
	const query = async (sql: string) => {
		const response = await fetch(`${task.vnUrl}/api/?service=cdr_query&format=json`, {
			method: 'POST',
			headers: {
				Authorization: `Bearer ${task.token}`,
				'Content-Type': 'application/x-www-form-urlencoded',
			},
			body: new URLSearchParams({ sql }).toString(),
		});
		const answer = JSON.parse(await response.text()) as {
			status: { code: number };
			result: unknown[];
		};
		if (answer.status.code !== 200) throw new Error(`cdr_query answered ${answer.status.code}`);
		return answer.result.length;
	};
	return await measure(
		() => query(task.sql.replace(/LIMIT \d+/i, 'LIMIT 200')),
		async () => ({ produced: await query(task.sql) }),
	);
}
