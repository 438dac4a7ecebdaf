import { operationProperties } from '../../../shared/router';
import * as deletePrompt from './delete.operation';
import * as download from './download.operation';
import * as getAll from './getAll.operation';
import * as record from './record.operation';
import * as upload from './upload.operation';

export const operations = { delete: deletePrompt, download, getAll, record, upload };

export const description = operationProperties('prompt', 'getAll', operations);
