// Voice prompts: list, download (file followed by the status data, as the spec warns), multipart
// upload with the naming, uniqueness, type and size rules, delete, and the telephone recording studio.
import { AUDIO_CONTENT_TYPES, audioLengthSeconds, detectUploadType, makeWav } from '../audio.mts';
import { MAX_FILE_BYTES, toXml } from '../http.mts';
import type { Prompt, State } from '../state.mts';
import { digitsOnly, formatDateTime } from '../util.mts';
import { isValidPhone } from './calls.mts';
import { ServiceError } from './common.mts';
import type { OpHandler, Params } from './common.mts';

const STUDIO_DELAY_MS = 200;

/** Upload rule 1: the part before the first dot, lower-cased, reduced to a-z 0-9 - _. */
export function promptNameFromFile(filename: string): string {
	const base = filename.replace(/^.*[\\/]/, '').split('.')[0];
	return base
		.toLowerCase()
		.replace(/\s+/g, '_')
		.replace(/[^a-z0-9_-]/g, '');
}

function promptView(prompt: Prompt): Record<string, unknown> {
	return {
		name: prompt.name,
		create_date: prompt.create_date,
		size: prompt.size,
		length: prompt.length,
	};
}

/** Names sent to download/delete: characters other than letters, digits, - and _ are dropped. */
function requestedName(params: Params, missing: number, invalid: number): string {
	const text = params.str('prompt_name');
	if (text === '') throw new ServiceError(missing, 'prompt_name is required');
	const name = text.replace(/[^A-Za-z0-9_-]/g, '');
	if (name === '')
		throw new ServiceError(
			invalid,
			'prompt_name has no valid characters (letters, digits, - and _)',
		);
	return name;
}

function findPrompt(state: State, name: string): Prompt | undefined {
	return state.prompts.get(name) ?? state.prompts.get(name.toLowerCase());
}

const getPromptsList: OpHandler = ({ state }) => {
	if (state.prompts.size === 0) throw new ServiceError(9041, 'No prompts in the account');
	return { result: [...state.prompts.values()].map(promptView) };
};

const downloadPrompt: OpHandler = ({ state, params, format, service }) => {
	const name = requestedName(params, 9011, 9013);
	const prompt = findPrompt(state, name);
	if (!prompt) throw new ServiceError(9012, `No prompt named "${name}"`);
	const status = { code: 200, description: 'Prompt downloaded' };
	// The real service appends its status answer after the file content; so does the sandbox.
	const trailer = Buffer.from(
		format === 'json'
			? JSON.stringify({ service, status })
			: toXml('response', { service, status }),
		'utf8',
	);
	return {
		raw: {
			contentType: AUDIO_CONTENT_TYPES[prompt.type],
			length: prompt.data.length + trailer.length,
			chunks: () => [prompt.data, trailer],
			filename: `${prompt.name}.${prompt.type === 'opus' ? 'ogg' : prompt.type}`,
		},
	};
};

const uploadPrompt: OpHandler = ({ state, params, files }) => {
	const file = files.find((f) => f.field === 'prompt_file');
	if (!file || file.size === 0)
		throw new ServiceError(9021, 'prompt_file is required and may not be empty');
	if (file.size > MAX_FILE_BYTES || !file.data)
		throw new ServiceError(9024, `The file is larger than ${MAX_FILE_BYTES} bytes (50 MB)`);
	const name = promptNameFromFile(file.filename);
	if (name === '')
		throw new ServiceError(9025, 'Processing failed: the file name has no usable characters');
	const checked = params.filled('file_name') ? promptNameFromFile(params.str('file_name')) : '';
	if (checked !== '' && state.prompts.has(checked))
		throw new ServiceError(9022, `A prompt named "${checked}" already exists`);
	if (state.prompts.has(name))
		throw new ServiceError(9022, `A prompt named "${name}" already exists`);
	const type = detectUploadType(file.data.subarray(0, 64), file.filename);
	if (!type)
		throw new ServiceError(
			9023,
			'File type not supported: WAV, MP3, AAC, FLAC, OGG, M4A, AMR or OPUS',
		);
	state.prompts.set(name, {
		name,
		create_date: formatDateTime(new Date()),
		size: file.size,
		length: audioLengthSeconds(file.data, type),
		type,
		data: file.data,
	});
	return { description: 'Prompt uploaded', status: { prompt_name: name } };
};

const deletePrompt: OpHandler = ({ state, params }) => {
	const name = requestedName(params, 9031, 9034);
	const prompt = findPrompt(state, name);
	if (!prompt) throw new ServiceError(9032, `No prompt named "${name}"`);
	state.prompts.delete(prompt.name);
	return { description: 'Prompt deleted', status: { prompt_name: prompt.name } };
};

const recordingStudio: OpHandler = ({ core, state, params }) => {
	const destination = params.str('destination');
	if (!isValidPhone(destination)) throw new ServiceError(9026, 'destination is empty or invalid');
	let n = state.prompts.size + 1;
	while (state.prompts.has(`studio_${n}`)) n++;
	const name = `studio_${n}`;
	// The call, the guidance and the recording take a moment; then the prompt exists.
	core.schedule(Date.now() + STUDIO_DELAY_MS, async () => {
		if (state.prompts.has(name)) return;
		const data = makeWav(48044, 523);
		state.prompts.set(name, {
			name,
			create_date: formatDateTime(new Date()),
			size: data.length,
			length: audioLengthSeconds(data, 'wav'),
			type: 'wav',
			data,
		});
	});
	return {
		description: 'Recording call started',
		result: { destination: digitsOnly(destination), prompt_name: name },
	};
};

export const promptOps: Record<string, OpHandler> = {
	get_prompts_list: getPromptsList,
	download_prompt: downloadPrompt,
	upload_prompt: uploadPrompt,
	delete_prompt: deletePrompt,
	recording_studio: recordingStudio,
};
