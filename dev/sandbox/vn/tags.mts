// Tags. The spec gives only names and purposes; parameter names, result shapes and the 5xxx codes
// are the sandbox's choice, documented in sandbox/README.md. Unknown extra parameters are ignored.
// A taken name answers 5072 and a number already in the tag 5044: the codes public integrations
// with the real service report; the others (5001-5009) are the sandbox's own.
import type { State, Tag } from '../state.mts';
import { ServiceError, copy, findNumber } from './common.mts';
import type { OpHandler, Params } from './common.mts';

/** Reported by public integrations with the real service. */
const TAKEN_NAME = 5072;
const ALREADY_MEMBER = 5044;

function tagById(state: State, params: Params): Tag {
	const text = params.str('tag_id');
	if (!/^\d+$/.test(text)) throw new ServiceError(5001, 'tag_id is required and must be numeric');
	const tag = state.tags.get(Number(text));
	if (!tag) throw new ServiceError(5003, `No tag with the id ${text}`);
	return tag;
}

function tagName(params: Params): string {
	const name = params.str('tag_name');
	if (name === '') throw new ServiceError(5002, 'tag_name is required');
	return name;
}

function tagByName(state: State, name: string): Tag {
	const tag = [...state.tags.values()].find((t) => t.tag_name.toLowerCase() === name.toLowerCase());
	if (!tag) throw new ServiceError(5003, `No tag named "${name}"`);
	return tag;
}

function memberNumber(state: State, params: Params): string {
	const wanted = params.str('virtualnum');
	if (wanted === '') throw new ServiceError(5005, 'virtualnum is required');
	const record = findNumber(state, wanted);
	if (!record) throw new ServiceError(5006, `${wanted} is not a number of the account`);
	return record.virtualnum;
}

function nameTaken(state: State, name: string, except?: number): boolean {
	return [...state.tags.values()].some(
		(t) => t.tag_id !== except && t.tag_name.toLowerCase() === name.toLowerCase(),
	);
}

/** view_tags and view_tag_by_name: all tags, or those whose name contains tag_name. */
const viewTags: OpHandler = ({ state, params }) => {
	const part = params.str('tag_name').toLowerCase();
	const rows = [...state.tags.values()].filter(
		(t) => part === '' || t.tag_name.toLowerCase().includes(part),
	);
	if (rows.length === 0) throw new ServiceError(5009, 'No results');
	return { result: rows.map((t) => state.tagView(t)) };
};

const viewTagById: OpHandler = ({ state, params }) => ({
	result: state.tagView(tagById(state, params)),
});

const viewTagsByVirtualnum: OpHandler = ({ state, params }) => {
	const number = memberNumber(state, params);
	const rows = [...state.tags.values()].filter((t) => t.members.has(number));
	if (rows.length === 0) throw new ServiceError(5009, `${number} has no tags`);
	return { result: rows.map((t) => state.tagView(t)) };
};

const createTag: OpHandler = ({ state, params }) => {
	const name = tagName(params);
	if (nameTaken(state, name))
		throw new ServiceError(TAKEN_NAME, `A tag named "${name}" already exists`);
	return { result: state.tagView(state.createTag(name)) };
};

const updateTag: OpHandler = ({ state, params }) => {
	const tag = tagById(state, params);
	const name = tagName(params);
	if (nameTaken(state, name, tag.tag_id))
		throw new ServiceError(TAKEN_NAME, `A tag named "${name}" already exists`);
	tag.tag_name = name;
	return { result: state.tagView(tag) };
};

const deleteTag: OpHandler = ({ state, params }) => {
	const tag = tagById(state, params);
	state.tags.delete(tag.tag_id);
	return { result: state.tagView(tag) };
};

const addMemberToTag: OpHandler = ({ state, params }) => {
	const tag = tagById(state, params);
	const number = memberNumber(state, params);
	if (tag.members.has(number))
		throw new ServiceError(ALREADY_MEMBER, `${number} is already in the tag "${tag.tag_name}"`);
	tag.members.add(number);
	return { result: state.tagView(tag) };
};

function removeMember(state: State, tag: Tag, params: Params): { result: unknown } {
	const wanted = params.str('virtualnum');
	if (wanted === '') throw new ServiceError(5005, 'virtualnum is required');
	const number = findNumber(state, wanted)?.virtualnum ?? wanted.replace(/\D/g, '');
	if (!tag.members.has(number))
		throw new ServiceError(5008, `${wanted} is not in the tag "${tag.tag_name}"`);
	tag.members.delete(number);
	return { result: state.tagView(tag) };
}

const removeMemberFromTagId: OpHandler = ({ state, params }) => {
	const tag = tagById(state, params);
	return removeMember(state, tag, params);
};

const removeMemberFromTagName: OpHandler = ({ state, params }) => {
	const tag = tagByName(state, tagName(params));
	return removeMember(state, tag, params);
};

function members(state: State, tag: Tag): string[] {
	const numbers = [...tag.members].filter((n) => state.numbers.has(n));
	if (numbers.length === 0)
		throw new ServiceError(5009, `The tag "${tag.tag_name}" has no members`);
	return numbers;
}

const viewVirtualnumMembersByTagId: OpHandler = ({ state, params }) => {
	const tag = tagById(state, params);
	return { result: copy(members(state, tag).map((n) => state.numbers.get(n))) };
};

const memberSummaries = (state: State, tag: Tag) =>
	members(state, tag).map((n) => ({
		virtualnum: n,
		description: state.numbers.get(n)?.description ?? '',
	}));

const getMembersByTagId: OpHandler = ({ state, params }) => ({
	result: memberSummaries(state, tagById(state, params)),
});

const getMembersByTagName: OpHandler = ({ state, params }) => ({
	result: memberSummaries(state, tagByName(state, tagName(params))),
});

export const tagOps: Record<string, OpHandler> = {
	view_tags: viewTags,
	view_tag_by_name: viewTags,
	view_tag_by_id: viewTagById,
	view_tags_by_virtualnum: viewTagsByVirtualnum,
	create_tag: createTag,
	update_tag: updateTag,
	delete_tag: deleteTag,
	add_member_to_tag: addMemberToTag,
	remove_member_from_tag_id: removeMemberFromTagId,
	remove_member_from_tag_name: removeMemberFromTagName,
	view_virtualnum_members_by_tag_id: viewVirtualnumMembersByTagId,
	get_members_by_tag_id: getMembersByTagId,
	get_members_by_tag_name: getMembersByTagName,
};
