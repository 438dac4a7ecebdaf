/**
 * Calls of one caller that the service stored in two forms, for the checks that a number is found
 * whatever its spelling (Call Record → Query, the deal-won example, its e2e): the caller's older
 * call stored local (`0541110010`), the latest stored international (`972541110010`), then a
 * later call of a neighbour number (`0541110011`), which no spelling of the caller may match.
 */
import type { Sandbox } from '../sandbox/index.mts';

export const CALLER = '0541110010';
/** How CRMs, forms and phones write the caller. */
export const CALLER_SPELLINGS = ['+972-54-111-0010', '0541110010', '972541110010', '054 111 0010'];

/** Seeds the three calls on `0722000100`; the caller's two call IDs. */
export function seedCallerCalls(sandbox: Sandbox): { older: string; latest: string } {
	const call = (cdr_ani: string, start_call: string) =>
		sandbox.control.seed({
			cdr: { cdr_ddi: '0722000100', cdr_ani, start_call, call_status: 'ANSWER' },
		}).cdr!.cdr_uniqueid;
	const older = call(CALLER, '2025-03-01 09:00:00');
	const latest = call(`972${CALLER.slice(1)}`, '2025-03-02 09:00:00');
	call('0541110011', '2025-03-03 09:00:00');
	return { older, latest };
}
