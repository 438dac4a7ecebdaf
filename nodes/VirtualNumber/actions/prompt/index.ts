import { operationProperties } from '../../../shared/router';
import * as deletePrompt from './delete.operation';
import * as download from './download.operation';
import * as getAll from './getAll.operation';
import * as record from './record.operation';
import * as upload from './upload.operation';

/** The resource's operations, by their Operation value; the dropdown and fields are derived from them. */
export const operations = { delete: deletePrompt, download, getAll, record, upload };

export const description = operationProperties('prompt', 'getAll', operations);
