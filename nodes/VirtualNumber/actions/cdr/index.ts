import { operationProperties } from '../../../shared/router';
import * as createManual from './createManual.operation';
import * as downloadRecording from './downloadRecording.operation';
import * as getMetadata from './getMetadata.operation';
import * as getTranscript from './getTranscript.operation';
import * as getUniqueCallers from './getUniqueCallers.operation';
import * as query from './query.operation';

export const operations = {
	createManual,
	downloadRecording,
	getMetadata,
	getTranscript,
	getUniqueCallers,
	query,
};

export const description = operationProperties('cdr', 'query', operations);
