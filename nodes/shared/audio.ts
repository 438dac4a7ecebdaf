/**
 * What an audio file is, by its bytes: the formats the virtual number service stores prompts and
 * recordings in (spec: upload_prompt rule 4). Both downloads decide by these, never by the
 * Content-Type, which PHP services set loosely (a text answer served as audio/wav, a WAV as text/html).
 */

type AudioFormat = 'wav' | 'mp3' | 'aac' | 'flac' | 'ogg' | 'm4a' | 'amr';

export interface AudioType {
	format: AudioFormat;
	mimeType: string;
	extension: string;
}

const TYPES: Record<AudioFormat, AudioType> = {
	wav: { format: 'wav', mimeType: 'audio/wav', extension: 'wav' },
	mp3: { format: 'mp3', mimeType: 'audio/mpeg', extension: 'mp3' },
	aac: { format: 'aac', mimeType: 'audio/aac', extension: 'aac' },
	flac: { format: 'flac', mimeType: 'audio/flac', extension: 'flac' },
	ogg: { format: 'ogg', mimeType: 'audio/ogg', extension: 'ogg' },
	m4a: { format: 'm4a', mimeType: 'audio/mp4', extension: 'm4a' },
	amr: { format: 'amr', mimeType: 'audio/amr', extension: 'amr' },
};

/** Bytes needed to recognise every format. */
export const AUDIO_HEAD_BYTES = 12;

/** The audio format of a file by its first bytes, or undefined when they are not audio. */
export function sniffAudio(head: Buffer): AudioType | undefined {
	const ascii = (start: number, end: number) => head.toString('latin1', start, end);
	if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return TYPES.wav;
	if (ascii(0, 3) === 'ID3') return TYPES.mp3;
	if (ascii(0, 4) === 'fLaC') return TYPES.flac;
	if (ascii(0, 4) === 'OggS') return TYPES.ogg;
	if (ascii(0, 5) === '#!AMR') return TYPES.amr;
	if (head.length >= 8 && ascii(4, 8) === 'ftyp') return TYPES.m4a;
	if (head.length >= 2 && head[0] === 0xff) {
		// MPEG frame sync: layer bits 00 are AAC (ADTS), anything else an MPEG audio layer.
		if ((head[1] & 0xf6) === 0xf0) return TYPES.aac;
		if ((head[1] & 0xe0) === 0xe0 && (head[1] & 0x06) !== 0) return TYPES.mp3;
	}
	return undefined;
}

/**
 * The length a WAV announces in its RIFF header (8 + the RIFF size), or undefined when the bytes
 * are no WAV or the size is a streaming placeholder (0 or 0xFFFFFFFF) that announces nothing.
 */
export function wavAnnouncedLength(head: Buffer): number | undefined {
	if (sniffAudio(head)?.format !== 'wav') return undefined;
	const size = head.readUInt32LE(4);
	return size === 0 || size === 0xffffffff ? undefined : 8 + size;
}
