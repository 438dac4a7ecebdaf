/**
 * A stand-in CRM on loopback for the transcript example (examples/ai/call-transcript-summary-to-crm.json):
 * records the JSON bodies of the notes posted to it. Used by the e2e in n8n and by the demo in-process.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

export interface StandInCrm {
	url: string;
	notes: IDataObject[];
	close(): Promise<void>;
}

export async function startCrm(): Promise<StandInCrm> {
	const notes: IDataObject[] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			notes.push(JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') as IDataObject);
			res.writeHead(201, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ id: notes.length }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/api/notes`,
		notes,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
