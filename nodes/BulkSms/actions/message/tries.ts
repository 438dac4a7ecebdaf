/**
 * Send under n8n's Retry On Fail. n8n runs a failed node again, up to Max Tries, within the same
 * run of the node (WorkflowExecute's retry loop, n8n 1.x and 2.x): it does so after an error, and
 * under Continue On Fail whenever the first output item is an error item. Each try gets a new
 * context; what lasts between the tries is the execution's data. So the run of Send (its messages,
 * its batches and what became of each) is kept in the node's context of the execution
 * (`getContext('node')`), under the node's run index: a later try sends only the batches that
 * never reached the service, and outputs what every try did.
 *
 * Only a small marker is kept as data ({ runIndex, tries }); the run itself is held beside it, not
 * enumerable, so it is never saved with the execution. A later try that finds the marker but not
 * the run (the data was copied between tries) refuses to send anything (`refuseLostRun`).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { retryOnFailTries } from '../../../shared/n8nCompat';
import type { SendRun } from './batches';

const KEY = 'bulkSmsSend';

interface Marker {
	runIndex: number;
	tries: number;
	run?: SendRun;
}

function store(context: IExecuteFunctions): IDataObject {
	return context.getContext('node') as IDataObject;
}

function runIndexOf(context: IExecuteFunctions): number {
	return Number(context.getWorkflowDataProxy(0).$runIndex ?? 0);
}

/** The marker of this run of the node, left by an earlier try. */
function markerOf(context: IExecuteFunctions): Marker | undefined {
	const marker = store(context)[KEY] as Marker | undefined;
	return marker && marker.runIndex === runIndexOf(context) ? marker : undefined;
}

/** The run an earlier try of this run of the node left, if any. */
export function earlierRun(context: IExecuteFunctions): SendRun | undefined {
	return markerOf(context)?.run;
}

/** Refuses a try that follows one which may have sent messages, when what it sent is not known any more. */
export function refuseLostRun(this: IExecuteFunctions): void {
	const marker = markerOf(this);
	if (!marker || marker.run) return;
	throw new NodeOperationError(
		this.getNode(),
		`This is try ${marker.tries + 1} of Retry On Fail, and what the earlier ` +
			`tries sent is no longer known: nothing was sent`,
		{
			description:
				'An earlier try of this run may have sent messages, so this one sends none ' +
				'rather than risk sending them twice. Check the notifications report for ' +
				'what was sent.',
		},
	);
}

/** Keeps the run for the next try (the run's `attempt` is this try's number). */
export function keepRun(context: IExecuteFunctions, run: SendRun): void {
	const marker: Marker = { runIndex: runIndexOf(context), tries: run.attempt };
	Object.defineProperty(marker, 'run', {
		value: run,
		enumerable: false,
		writable: true,
		configurable: true,
	});
	store(context)[KEY] = marker as unknown as IDataObject;
}

/**
 * After a try: n8n tries again after an error, or after output whose first item is an error item,
 * until Max Tries. When it will not, the run is dropped (the marker stays after a failed last try,
 * so that a try beyond it could never send again).
 */
export function endTry(context: IExecuteFunctions, run: SendRun, failed: boolean): void {
	const last = run.attempt >= retryOnFailTries(context.getNode());
	const data = store(context);
	if (!failed) delete data[KEY];
	else if (last) (data[KEY] as unknown as Marker).run = undefined;
}
