// Calls, call data and recordings: their success cases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { vnRaw } from '../helpers.mts';
import { sb, ok, covered, active } from './context.mts';

export function callSuites(): void {
	describe('calls', () => {
		test('create_virtualnum_call writes an answered call record', async () => {
			const number = active();
			const answer = await ok('create_virtualnum_call', {
				virtualnum: number,
				destination: '050-765-4321',
				first_target: 'virtualnum',
			});
			assert.match(answer.result.call_uuid, /^\d+\.\d+$/);
			const row = sb.control.cdr(answer.result.call_uuid)!;
			assert.equal(row.cdr_ddi, number);
			assert.equal(row.cdr_ani, '0507654321');
			assert.equal(row.call_status, 'ANSWER');
			assert.ok(row.call_duration > 0);
			assert.equal(row.has_recording, true, 'record_percentage 100 records every call');
		});

		test('create_virtualnum_call_v2 stores additional parameters on the call', async () => {
			const [first, second] = sb.control.virtualnums().filter((n) => n.active_status === 1);
			const answer = await ok('create_virtualnum_call_v2', {
				virtualnum1: first.virtualnum,
				virtualnum2: second.virtualnum,
				destination1: '0507654321',
				destination2: '0501112222',
				lead_id: 'L-77',
				campaign: 'spring',
			});
			const row = sb.control.cdr(answer.result.call_uuid)!;
			assert.deepEqual(JSON.parse(row.cdr_meta_data), { lead_id: 'L-77', campaign: 'spring' });
			assert.equal(row.user_phone, '0501112222');
			const query = await ok('cdr_query', {
				sql: `SELECT cdr_meta_data FROM webserviceview WHERE cdr_uniqueid = '${answer.result.call_uuid}'`,
			});
			assert.deepEqual(JSON.parse(query.result[0].cdr_meta_data), {
				lead_id: 'L-77',
				campaign: 'spring',
			});
			const meta = await ok('get_cdr_metadata_by_call_uuid', {
				call_uuid: answer.result.call_uuid,
			});
			assert.deepEqual(meta.result.pixel_data, { lead_id: 'L-77', campaign: 'spring' });
		});

		test('click2call_link returns a signed URL that expires; opening it places no call', async () => {
			const before = sb.control.cdrs({ limit: 100000 }).length;
			const answer = await ok('click2call_link', {
				virtualnum: active(),
				destination: '0507654321',
				expire_days: 2,
			});
			const url = new URL(answer.result.url);
			assert.equal(url.origin, sb.vnUrl);
			assert.match(url.searchParams.get('signature') ?? '', /^[0-9a-f]{64}$/);
			const expires = Number(url.searchParams.get('expires')) * 1000;
			assert.ok(Math.abs(expires - (Date.now() + 2 * 86400000)) < 60000);
			const opened = await fetch(url);
			assert.equal(opened.status, 200);
			assert.match(await opened.text(), /no call was placed/);
			url.searchParams.set('destination', '0500000000');
			assert.equal((await fetch(url)).status, 403, 'a tampered link is refused');
			assert.equal(sb.control.cdrs({ limit: 100000 }).length, before);
		});
	});

	describe('call data and recordings', () => {
		test('cdr_query returns the selected columns', async () => {
			const answer = await ok('cdr_query', {
				sql: "SELECT id, cdr_ddi, call_status FROM webserviceview WHERE start_call >= '2024-10-01 00:00:00' ORDER BY id LIMIT 3",
			});
			assert.equal(answer.result.length, 3);
			assert.deepEqual(Object.keys(answer.result[0]), ['id', 'cdr_ddi', 'call_status']);
		});

		test('cdr_subunique_query groups answered calls by caller', async () => {
			sb.control.seed({ cdrs: 3000 });
			const answer = await ok('cdr_subunique_query', {
				start_time: '2024-10-01 00:00:00',
				end_time: '2024-12-31 23:59:59',
			});
			assert.ok(answer.result.length > 0 && answer.result.length <= 2000);
			const top = answer.result[0];
			assert.deepEqual(Object.keys(top), [
				'cdr_ani',
				'calls_count',
				'total_duration',
				'first_call',
				'last_call',
			]);
			const check = await ok('cdr_query', {
				sql: `SELECT COUNT(*) AS n FROM webserviceview WHERE call_status = 'ANSWER' AND cdr_ani = '${top.cdr_ani}' AND start_call BETWEEN '2024-10-01 00:00:00' AND '2024-12-31 23:59:59'`,
			});
			assert.equal(check.result[0].n, top.calls_count);
		});

		test('cdr_subunique_query answers at most 2000 rows', async () => {
			sb.control.seed({ cdrs: 20000 });
			const answer = await ok('cdr_subunique_query', {
				start_time: '2024-10-01 00:00:00',
				end_time: '2024-12-31 23:59:59',
			});
			assert.equal(answer.result.length, 2000);
		});

		test('get_record_by_call_uuid streams a WAV, or an MP3 with type=mp3', async () => {
			const uuid = sb.control.cdrs({ hasRecording: true, limit: 1 })[0].cdr_uniqueid;
			const wav = await vnRaw(sb, { service: 'get_record_by_call_uuid', call_uuid: uuid });
			assert.equal(wav.headers.get('content-type'), 'audio/wav');
			const bytes = Buffer.from(await wav.arrayBuffer());
			assert.equal(bytes.length, 64 * 1024);
			assert.equal(bytes.toString('latin1', 0, 4), 'RIFF');
			assert.equal(bytes.readUInt32LE(4), bytes.length - 8);
			assert.equal(bytes.toString('latin1', 8, 16), 'WAVEfmt ');
			assert.equal(bytes.toString('latin1', 36, 40), 'data');
			const again = Buffer.from(
				await (
					await vnRaw(sb, { service: 'get_record_by_call_uuid', call_uuid: uuid })
				).arrayBuffer(),
			);
			assert.ok(again.equals(bytes), 'deterministic');
			const mp3 = await vnRaw(
				sb,
				{ service: 'get_record_by_call_uuid', call_uuid: uuid, type: 'mp3' },
				{ format: null },
			);
			assert.equal(mp3.headers.get('content-type'), 'audio/mpeg');
			const mp3Bytes = Buffer.from(await mp3.arrayBuffer());
			assert.equal(mp3Bytes.toString('latin1', 0, 3), 'ID3');
			assert.deepEqual(
				[...mp3Bytes.subarray(10, 12)],
				[0xff, 0xfb],
				'an MPEG-1 Layer III frame follows the tag',
			);
			covered.add('get_record_by_call_uuid');
		});

		test('get_record_by_call_uuid: a 50 MB recording is streamed', async () => {
			sb.control.configure({ recordingBytes: 50 * 1024 * 1024 });
			const uuid = sb.control.cdrs({ hasRecording: true, limit: 1 })[0].cdr_uniqueid;
			const res = await vnRaw(sb, { service: 'get_record_by_call_uuid', call_uuid: uuid });
			assert.equal(res.headers.get('content-length'), String(50 * 1024 * 1024));
			let size = 0;
			for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
				size += chunk.length;
			assert.equal(size, 50 * 1024 * 1024);
		});

		test('get_cdr_metadata_by_call_uuid returns the available sections', async () => {
			const rows = sb.control.cdrs({ limit: 1000 });
			const rich =
				rows.find((r) => r.gclid && r.cdr_meta_data && r.has_recording) ??
				rows.find((r) => r.gclid)!;
			const answer = await ok('get_cdr_metadata_by_call_uuid', { call_uuid: rich.cdr_uniqueid });
			assert.equal(answer.result.cdr.cdr_uniqueid, rich.cdr_uniqueid);
			assert.equal(answer.result.ads_data.gclid, rich.gclid);
			if (rich.cdr_meta_data)
				assert.deepEqual(answer.result.pixel_data, JSON.parse(rich.cdr_meta_data));
			if (rich.has_recording) assert.match(answer.result.speech_recognition.transcript, /calling/);
			const plain = rows.find((r) => !r.gclid && !r.cdr_meta_data && !r.has_recording)!;
			const bare = await ok('get_cdr_metadata_by_call_uuid', { call_uuid: plain.cdr_uniqueid });
			assert.deepEqual(Object.keys(bare.result), ['cdr']);
		});

		test('set_ads_offline_conversion then get_ads_offline_conversion', async () => {
			const uuid = sb.control.cdrs({ limit: 1 })[0].cdr_uniqueid;
			const set = await ok('set_ads_offline_conversion', {
				call_uuid: uuid,
				conversion_value: '149.90',
			});
			assert.equal(set.result.conversion_value, 149.9);
			const got = await ok('get_ads_offline_conversion', { call_uuid: uuid });
			assert.equal(got.result.conversion_value, 149.9);
			assert.match(got.result.update_time, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
		});

		test('create_virtualnum_cdr returns cdr_uniqueid and writes the row', async () => {
			const answer = await ok('create_virtualnum_cdr', {
				cdr_ddi: active(),
				cdr_start_call: '2024-11-05 10:00:00',
				cdr_totac_sec: 95,
				cdr_ani: '+972-50-123-4567',
				cdr_destination: '03-1234567',
				cdr_metadata: '{"crm":"ivr-7"}',
			});
			const row = sb.control.cdr(answer.result.cdr_uniqueid)!;
			assert.equal(row.start_call, '2024-11-05 10:00:00');
			assert.equal(row.end_call, '2024-11-05 10:01:35');
			assert.equal(row.call_duration, 95);
			assert.equal(row.cdr_ani, '972501234567');
			assert.equal(row.cdr_meta_data, '{"crm":"ivr-7"}');
		});
	});
}
