import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
	PROMPT_NAME_PATTERN,
	promptFileType,
	promptNameFromFileName,
} from '../../../../../nodes/VirtualNumber/actions/prompt/files.ts';

describe('voice prompt names and files (upload_prompt rules 1 and 4)', () => {
	test('the stored name: the part before the first dot, lower-case, letters, digits, - and _', () => {
		assert.equal(promptNameFromFileName('Welcome Message.v2.wav'), 'welcome_message');
		assert.equal(promptNameFromFileName('Día #1.wav'), 'da_1');
		assert.equal(promptNameFromFileName('IVR_Main-1.mp3'), 'ivr_main-1');
		assert.equal(promptNameFromFileName('folder/Menu.wav'), 'menu');
	});

	test('the type: by extension, or by MIME type for a name without one', () => {
		assert.equal(promptFileType('menu.WAV'), 'wav');
		assert.equal(promptFileType('menu.opus'), 'opus');
		assert.equal(
			promptFileType('menu.txt', 'audio/wav'),
			undefined,
			'an extension that is not audio decides',
		);
		assert.equal(promptFileType('menu', 'audio/x-wav; charset=binary'), 'wav');
		assert.equal(promptFileType('menu', 'text/plain'), undefined);
	});

	test('names for download and delete: English letters, digits, - and _', () => {
		assert.ok(PROMPT_NAME_PATTERN.test('welcome_1-b'));
		assert.ok(!PROMPT_NAME_PATTERN.test('welcome 1'));
		assert.ok(!PROMPT_NAME_PATTERN.test('שלום'));
	});
});
