/**
 * Reading every page of a paged list, for every caller (Virtual Number → Get Many → Return All,
 * the trigger's "All Numbers"), with the guards a service that ignores `page` needs: without
 * them such a service is asked for ever, and every copy of its page is kept in n8n's memory.
 *
 * - a page identical to the one before (the service ignored `page`) stops the reading;
 * - a full page that adds no row not already read stops it too (it would never end otherwise);
 * - MAX_PAGES pages at most.
 *
 * Each stop is an error naming the list, the page and what to do: a partial list is never
 * returned as if it were the whole.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * The most pages read for one list: 200 pages of 1,000 rows is 200,000 numbers, far beyond any
 * account the service's own 10,000-row page limit suggests, while a runaway stops within seconds.
 */
const MAX_PAGES = 200;

interface PagedList {
	node: INode;
	/** The list in the user's words, e.g. "active numbers". */
	label: string;
	/** The operation in the service's words, e.g. "get_virtualnum". */
	operation: string;
	pageSize: number;
	/** What identifies a row: two rows with the same key are the same row. */
	keyOf: (row: IDataObject) => string;
	readPage: (page: number) => Promise<IDataObject[]>;
	itemIndex?: number;
	maxPages?: number;
}

function stop(list: PagedList, page: number, what: string): NodeOperationError {
	return new NodeOperationError(
		list.node,
		`Reading the ${list.label} stopped at page ${page + 1}: ${what}`,
		{
			itemIndex: list.itemIndex,
			description:
				`The ${list.operation} pages did not come to an end the way the service pages ` +
				'(a page shorter than the page size). Nothing partial was returned. If the account ' +
				'really has this many rows, choose a filter; otherwise tell the provider that ' +
				`${list.operation} ignores "page".`,
		},
	);
}

/** Every row of the list, page by page until a short page, within the guards above. */
export async function readAllPages(list: PagedList): Promise<IDataObject[]> {
	const maxPages = list.maxPages ?? MAX_PAGES;
	const seen = new Set<string>();
	const all: IDataObject[] = [];
	let previous: string | undefined;
	for (let page = 0; page < maxPages; page++) {
		const rows = await list.readPage(page);
		const keys = rows.map(list.keyOf);
		const fingerprint = keys.join('\n');
		if (page > 0 && rows.length > 0 && fingerprint === previous)
			throw stop(list, page, 'the service answered the same page again');
		const fresh = keys.filter((key) => !seen.has(key)).length;
		if (page > 0 && rows.length >= list.pageSize && fresh === 0)
			throw stop(list, page, 'the page holds no row not already read');
		keys.forEach((key) => seen.add(key));
		all.push(...rows);
		if (rows.length < list.pageSize) return all;
		previous = fingerprint;
	}
	throw stop(list, maxPages - 1, `${maxPages} pages were read (the most this package reads)`);
}
