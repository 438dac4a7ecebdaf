// Deterministic audio: call recordings are generated on the fly (never held whole in memory, so a
// 50 MB recording costs a few cached 16 KB blocks), prompts get small real WAV files, and uploads
// are recognised by their magic bytes.

const SAMPLE_RATE = 8000; // telephony rate, 16-bit mono
const toneCache = new Map<number, Buffer>();

/** One second of a sine tone; an integer frequency makes the block repeat seamlessly. */
function toneBlock(frequency: number): Buffer {
	let block = toneCache.get(frequency);
	if (!block) {
		block = Buffer.alloc(SAMPLE_RATE * 2);
		for (let i = 0; i < SAMPLE_RATE; i++) {
			block.writeInt16LE(
				Math.round(8000 * Math.sin((2 * Math.PI * frequency * i) / SAMPLE_RATE)),
				i * 2,
			);
		}
		toneCache.set(frequency, block);
	}
	return block;
}

/** `announced: false` writes the sizes a streaming recorder leaves open (0xFFFFFFFF). */
function wavHeader(dataBytes: number, announced = true): Buffer {
	const header = Buffer.alloc(44);
	header.write('RIFF', 0, 'ascii');
	header.writeUInt32LE(announced ? 36 + dataBytes : 0xffffffff, 4);
	header.write('WAVE', 8, 'ascii');
	header.write('fmt ', 12, 'ascii');
	header.writeUInt32LE(16, 16); // PCM fmt chunk size
	header.writeUInt16LE(1, 20); // PCM
	header.writeUInt16LE(1, 22); // mono
	header.writeUInt32LE(SAMPLE_RATE, 24);
	header.writeUInt32LE(SAMPLE_RATE * 2, 28); // byte rate
	header.writeUInt16LE(2, 32); // block align
	header.writeUInt16LE(16, 34); // bits per sample
	header.write('data', 36, 'ascii');
	header.writeUInt32LE(announced ? dataBytes : 0xffffffff, 40);
	return header;
}

/** Total size of a generated WAV of about `bytes` bytes (header included, whole samples). */
export function wavSize(bytes: number): number {
	const data = Math.max(2, bytes - 44);
	return 44 + data - (data % 2);
}

/** Streams a WAV tone of exactly wavSize(bytes) bytes. */
export function* wavChunks(bytes: number, frequency: number, announced = true): Generator<Buffer> {
	const total = wavSize(bytes);
	yield wavHeader(total - 44, announced);
	const block = toneBlock(frequency);
	let left = total - 44;
	while (left > 0) {
		const piece = left >= block.length ? block : block.subarray(0, left);
		left -= piece.length;
		yield piece;
	}
}

export function makeWav(bytes: number, frequency: number): Buffer {
	return Buffer.concat([...wavChunks(bytes, frequency)]);
}

// MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, joint stereo: 417-byte frames. All-zero side information
// and main data decode as silence, which is all a "converted on the fly" recording needs to be.
const MP3_FRAME = (() => {
	const frame = Buffer.alloc(417);
	frame.set([0xff, 0xfb, 0x90, 0x64]);
	return frame;
})();
const ID3_HEADER = Buffer.from([0x49, 0x44, 0x33, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]);

/** Streams an MP3 (ID3 tag, then frames) of exactly `bytes` bytes. */
export function* mp3Chunks(bytes: number): Generator<Buffer> {
	const total = Math.max(bytes, ID3_HEADER.length + 4);
	yield ID3_HEADER;
	let left = total - ID3_HEADER.length;
	while (left > 0) {
		const piece = left >= MP3_FRAME.length ? MP3_FRAME : MP3_FRAME.subarray(0, left);
		left -= piece.length;
		yield piece;
	}
}

export type AudioType = 'wav' | 'mp3' | 'aac' | 'flac' | 'ogg' | 'opus' | 'm4a' | 'amr';

export const AUDIO_CONTENT_TYPES: Record<AudioType, string> = {
	wav: 'audio/wav',
	mp3: 'audio/mpeg',
	aac: 'audio/aac',
	flac: 'audio/flac',
	ogg: 'audio/ogg',
	opus: 'audio/ogg',
	m4a: 'audio/mp4',
	amr: 'audio/amr',
};

const EXTENSIONS: Record<string, AudioType> = {
	wav: 'wav',
	mp3: 'mp3',
	aac: 'aac',
	flac: 'flac',
	ogg: 'ogg',
	oga: 'ogg',
	opus: 'opus',
	m4a: 'm4a',
	mp4: 'm4a',
	amr: 'amr',
};

function detectByMagic(head: Buffer): AudioType | undefined {
	const ascii = (start: number, end: number) => head.subarray(start, end).toString('latin1');
	if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'wav';
	if (ascii(0, 4) === 'fLaC') return 'flac';
	if (ascii(0, 4) === 'OggS') return head.includes('OpusHead') ? 'opus' : 'ogg';
	if (ascii(4, 8) === 'ftyp') return 'm4a';
	if (ascii(0, 5) === '#!AMR') return 'amr';
	if (ascii(0, 3) === 'ID3') return 'mp3';
	if (head[0] === 0xff && head.length > 1) {
		if ((head[1] & 0xf6) === 0xf0) return 'aac'; // ADTS: sync word with layer bits 00
		if ((head[1] & 0xe0) === 0xe0 && (head[1] & 0x06) !== 0) return 'mp3';
	}
	return undefined;
}

/** Signatures of common files that are certainly not audio, whatever their extension says. */
function isKnownNonAudio(head: Buffer): boolean {
	const ascii = head.subarray(0, 8).toString('latin1');
	return (
		ascii.startsWith('%PDF') ||
		ascii.startsWith('\x89PNG') ||
		ascii.startsWith('GIF8') ||
		ascii.startsWith('PK\x03\x04') ||
		ascii.startsWith('MZ') ||
		ascii.startsWith('\x7fELF') ||
		(head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) ||
		/^\s*</.test(ascii)
	);
}

/**
 * Upload type check: magic bytes win; when they say nothing, a supported extension is trusted
 * (so hand-made test files named *.wav pass) unless the content is a known non-audio format.
 */
export function detectUploadType(head: Buffer, filename: string): AudioType | undefined {
	const byMagic = detectByMagic(head);
	if (byMagic) return byMagic;
	if (isKnownNonAudio(head)) return undefined;
	const ext = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
	return ext ? EXTENSIONS[ext] : undefined;
}

/** Playing time in seconds: exact for PCM WAV, estimated at 128 kbit/s for compressed formats. */
export function audioLengthSeconds(data: Buffer, type: AudioType): number {
	if (type === 'wav' && data.length >= 44) {
		const byteRate = data.readUInt32LE(28);
		let offset = 12;
		while (offset + 8 <= data.length) {
			const id = data.toString('latin1', offset, offset + 4);
			const size = data.readUInt32LE(offset + 4);
			if (id === 'data' && byteRate > 0)
				return Math.round((Math.min(size, data.length - offset - 8) / byteRate) * 100) / 100;
			offset += 8 + size + (size % 2);
		}
	}
	return Math.round(((data.length * 8) / 128000) * 100) / 100;
}
