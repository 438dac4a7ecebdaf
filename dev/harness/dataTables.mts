/**
 * An in-memory stand-in for n8n's Data Tables, handed to the engine as n8n hands its own
 * (`additionalData['data-table'].dataTableProxyProvider`, read by n8n-core's
 * `getDataTableHelperFunctions`). Modelled on n8n 2.40's `DataTableProxyService` and
 * `DataTableService`:
 * - the allow-list: n8n serves Data Tables only to its own Data table, Data table Tool and
 *   Evaluation nodes and throws "This proxy is only available for Data table nodes" to any other
 *   (`servesEveryNode: true` models an n8n that would serve this package's nodes);
 * - a table of another ID: "Data table with ID '…' could not be found in this project";
 * - rows ordered by `id`, `skip`/`take` paging, `count` of all rows matching the filter;
 * - a row naming a column the table lacks is refused, as n8n's `validateAndTransformRows` does.
 */
import type {
	DataTableColumn,
	DataTableColumnType,
	DataTableFilter,
	DataTableRow,
	DataTableRowReturn,
	IDataTableProjectAggregateService,
	IDataTableProjectService,
	INode,
	IWorkflowExecuteAdditionalData,
	ListDataTableRowsOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

const N8N_DATA_TABLE_NODES = [
	'n8n-nodes-base.dataTable',
	'n8n-nodes-base.dataTableTool',
	'n8n-nodes-base.evaluationTrigger',
	'n8n-nodes-base.evaluation',
];

const PROJECT_ID = 'test-project';

interface Table {
	id: string;
	name: string;
	columns: DataTableColumn[];
	rows: DataTableRowReturn[];
	nextId: number;
}

export interface MemoryDataTablesOptions {
	/** Serve every node, not only n8n's own Data table nodes (n8n 2.40 serves only those). */
	servesEveryNode?: boolean;
}

function matches(row: DataTableRow, filter?: DataTableFilter): boolean {
	if (!filter || filter.filters.length === 0) return true;
	const results = filter.filters.map(({ columnName, condition, value }) => {
		const cell = row[columnName] ?? null;
		if (condition === 'eq') return cell === value;
		if (condition === 'neq') return cell !== value;
		if (condition === 'like') return String(cell).includes(String(value).replace(/%/g, ''));
		if (condition === 'ilike')
			return String(cell).toLowerCase().includes(String(value).replace(/%/g, '').toLowerCase());
		throw new Error(`The stand-in Data Table has no condition ${condition}`);
	});
	return filter.type === 'or' ? results.some(Boolean) : results.every(Boolean);
}

export class MemoryDataTables {
	readonly tables = new Map<string, Table>();
	/** Every proxy call, `<method> <tableId>`: a test counts the reads of a run. */
	readonly calls: string[] = [];

	constructor(private readonly options: MemoryDataTablesOptions = {}) {}

	/** Adds a table of string columns (or typed: `{ phone: 'number' }`), with its rows. */
	create(
		name: string,
		columns: string[] | Record<string, DataTableColumnType>,
		rows: DataTableRow[] = [],
	): string {
		const id = `table${this.tables.size + 1}`;
		const entries = Array.isArray(columns)
			? columns.map((column) => [column, 'string'] as const)
			: Object.entries(columns);
		const table: Table = {
			id,
			name,
			columns: entries.map(([column, type], index) => ({
				id: `${id}-col${index}`,
				name: column,
				type,
				index,
				dataTableId: id,
			})),
			rows: [],
			nextId: 1,
		};
		this.tables.set(id, table);
		this.insert(table, rows);
		return id;
	}

	/** The rows of a table, without n8n's own columns. */
	rowsOf(id: string): DataTableRow[] {
		return (this.tables.get(id)?.rows ?? []).map(
			({ id: _id, createdAt, updatedAt, ...row }) => row,
		);
	}

	/** What a test hands `runWorkflow` (and `callNodeMethod`) as `additionalData`. */
	additionalData(): Partial<IWorkflowExecuteAdditionalData> {
		const provider = {
			getDataTableAggregateProxy: async (_workflow: unknown, node: INode) => {
				this.validate(node);
				return this.aggregate();
			},
			getDataTableProxy: async (_workflow: unknown, node: INode, dataTableId: string) => {
				this.validate(node);
				const table = this.tables.get(dataTableId);
				if (!table)
					throw new NodeOperationError(
						node,
						`Data table with ID '${dataTableId}' could not be found in this project`,
						{
							description:
								'It may have been deleted, or skipped when the workflow was imported. Choose an existing data table in the node.',
						},
					);
				return this.proxy(table);
			},
		};
		return { 'data-table': { dataTableProxyProvider: provider } } as never;
	}

	private validate(node: INode) {
		if (!this.options.servesEveryNode && !N8N_DATA_TABLE_NODES.includes(node.type))
			throw new Error('This proxy is only available for Data table nodes');
	}

	private insert(table: Table, rows: DataTableRow[]): DataTableRowReturn[] {
		const names = new Set(table.columns.map((column) => column.name));
		const added = rows.map((row) => {
			for (const key of Object.keys(row))
				if (!names.has(key)) throw new Error(`unknown column name '${key}'`);
			const now = new Date();
			const full = Object.fromEntries(table.columns.map((c) => [c.name, row[c.name] ?? null]));
			return { ...full, id: table.nextId++, createdAt: now, updatedAt: now } as DataTableRowReturn;
		});
		table.rows.push(...added);
		return added;
	}

	private aggregate(): IDataTableProjectAggregateService {
		return {
			getProjectId: () => PROJECT_ID,
			getManyAndCount: async (options) => {
				const name = options.filter?.name;
				const all = [...this.tables.values()]
					.filter((t) => !name || t.name.toLowerCase().includes(String(name)))
					.sort((a, b) => a.name.localeCompare(b.name));
				const skip = options.skip ?? 0;
				const page = all.slice(skip, options.take ? skip + options.take : undefined);
				const data = page.map((t) => ({
					id: t.id,
					name: t.name,
					columns: t.columns,
					createdAt: new Date(),
					updatedAt: new Date(),
					projectId: PROJECT_ID,
				}));
				return { count: all.length, data };
			},
			createDataTable: async () => {
				throw new Error('The stand-in creates tables with create() only');
			},
			deleteDataTableAll: async () => false,
		};
	}

	private proxy(table: Table): IDataTableProjectService {
		const unused = async () => {
			throw new Error('Not used by this package');
		};
		return {
			getColumns: async () => {
				this.calls.push(`getColumns ${table.id}`);
				return table.columns;
			},
			getManyRowsAndCount: async (options: Partial<ListDataTableRowsOptions>) => {
				this.calls.push(`getManyRowsAndCount ${table.id}`);
				const all = table.rows.filter((row) => matches(row, options.filter));
				const skip = options.skip ?? 0;
				const data = all.slice(skip, options.take ? skip + options.take : undefined);
				return { count: all.length, data: data.map((row) => ({ ...row })) };
			},
			insertRows: (async (rows: DataTableRow[], returnType: string) => {
				this.calls.push(`insertRows ${table.id}`);
				const added = this.insert(table, rows);
				if (returnType === 'all') return added;
				if (returnType === 'id') return added.map((row) => ({ id: row.id }));
				return { success: true, insertedRows: added.length };
			}) as IDataTableProjectService['insertRows'],
			updateDataTable: unused,
			deleteDataTable: unused,
			addColumn: unused,
			moveColumn: unused,
			deleteColumn: unused,
			updateRows: unused,
			upsertRow: unused,
			deleteRows: unused,
			clearRows: unused,
		};
	}
}
