import { columnType, createTableSql, sortsCaseless, systemColumns, TEXT_TYPES } from '../../server/engine/ddl';
import { declarations } from '../../core/resources/declarations';
import { hasView } from '../../core/engine/types';
import { keepsNumbers } from '../../core/engine/lifecycle';
import { openTestDb, type TestDb } from './helpers';
import { migrate } from '../../server/db/migrate';

// The migrations are written by hand; these checks fail the moment a declaration and its table drift apart.
let t: TestDb;
let columns: {
  table_name: string;
  column_name: string;
  data_type: string;
  is_nullable: string;
  column_default: string | null;
  is_generated: string;
}[];
let indexes: { tablename: string; indexdef: string }[];
// A declaration read from a view (the audit trail, migration 120) is served by the indexes of the tables it reads.
let viewTables: { view_name: string; table_name: string }[];
/** Columns a view carries for its readers' filters only (the trail's set of an entry: 0 for a single-record row). */
const VIEW_ONLY_COLUMNS: Record<string, string[]> = { audit_log: ['set_id'] };
const indexesOf = (table: string) => {
  const read = viewTables.filter((v) => v.view_name === table).map((v) => v.table_name);
  return indexes.filter((i) => i.tablename === table || read.includes(i.tablename)).map((i) => i.indexdef);
};

beforeAll(async () => {
  t = await openTestDb();
  await migrate(t.db);
  columns = await t.db.query(
    `select table_name, column_name, data_type, is_nullable, column_default, is_generated
       from information_schema.columns where table_schema = current_schema()`,
  );
  indexes = await t.db.query(`select tablename, indexdef from pg_indexes where schemaname = current_schema()`);
  viewTables = await t.db.query(
    `select view_name, table_name from information_schema.view_table_usage where view_schema = current_schema()`,
  );
});
afterAll(() => t?.close());

describe.each(declarations.map((d) => [d.name, d] as const))('%s', (_name, decl) => {
  const tableColumns = () => columns.filter((c) => c.table_name === decl.table);

  it('has a table with a column of the right type for every declared field', () => {
    expect(tableColumns().length).toBeGreaterThan(0);
    for (const f of decl.fields.filter((x) => !x.computed)) {
      const col = tableColumns().find((c) => c.column_name === f.source);
      expect(col, `${decl.table}.${f.source}`).toBeDefined();
      if (f.source === 'created_at') continue;
      expect(col!.data_type, `${decl.table}.${f.source}`).toBe(columnType(f));
    }
  });

  it('has no column the declaration does not know', () => {
    const known = new Set([
      ...decl.fields.map((f) => f.source),
      ...systemColumns(decl),
      ...(VIEW_ONLY_COLUMNS[decl.table] ?? []),
    ]);
    const unknown = tableColumns()
      .map((c) => c.column_name)
      .filter((c) => !known.has(c));
    expect(unknown).toEqual([]);
  });

  it('requires in the form every column the database requires', () => {
    // A NOT NULL column without a default must be a required field, or saving a form would fail in the database.
    for (const c of tableColumns()) {
      const f = decl.fields.find((x) => x.source === c.column_name);
      if (!f || c.is_nullable === 'YES' || c.column_default !== null || f.readOnly) continue;
      expect(f.required, `${decl.table}.${f.source} is NOT NULL without default`).toBe(true);
    }
  });

  it('has an index serving every sort, filter and search', () => {
    const defs = indexesOf(decl.table);
    for (const f of decl.fields.filter((x) => (x.sortable || x.filter) && !x.computed && !TEXT_TYPES.has(x.type))) {
      const served = defs.some(
        (d) =>
          new RegExp(`\\(merchant_id, ${f.source}\\b`).test(d) ||
          new RegExp(`merchant_id, [^)]*\\b${f.source}\\b`).test(d),
      );
      expect(served, `${decl.table}.${f.source} has no index`).toBe(true);
    }
    // A field stored as text on the expression the list compares: a filter the plain column (`field = $1`), a sort
    // what sortExpression orders by (lower(field) for text, the column for a choice). An index on lower(status)
    // serves no `status = $1`. The field may follow columns the list also compares (a tab's status before a name).
    const on = (expr: string) => defs.some((d) => new RegExp(`\\(merchant_id, ([^()]*, )?${expr}[,)]`).test(d));
    for (const f of decl.fields.filter((x) => !x.computed && TEXT_TYPES.has(x.type))) {
      if (f.filter) expect(on(f.source), `${decl.table}.${f.source} has no index its filter uses`).toBe(true);
      if (f.sortable)
        expect(
          on(sortsCaseless(f) ? `lower\\(${f.source}\\)` : f.source),
          `${decl.table}.${f.source} has no index its sort uses`,
        ).toBe(true);
    }
    if (decl.search?.length)
      expect(
        defs.some((d) => /gin \(search_text gin_trgm_ops\)/.test(d)),
        `${decl.table} search`,
      ).toBe(true);
  });

  it('holds each number once per agency in the database, when numbered', () => {
    if (!decl.numbering) return;
    // A code the agency may type over (a client's) is unique like any unique field; a document's number always is.
    if (!keepsNumbers(decl)) {
      expect(decl.fields.find((f) => f.source === decl.numbering!.field)?.unique).toBe(true);
      return;
    }
    const defs = indexesOf(decl.table);
    expect(defs).toContainEqual(
      expect.stringMatching(new RegExp(`^CREATE UNIQUE INDEX .* \\(merchant_id, ${decl.numbering.field}\\)$`)),
    );
  });

  it('names only real fields in its sort, search, tabs and views', () => {
    const sources = new Set(decl.fields.map((f) => f.source));
    expect(sources.has(decl.defaultSort.field) || decl.defaultSort.field === 'id').toBe(true);
    for (const s of decl.search ?? []) expect(sources.has(s), s).toBe(true);
    // A tab filters declared filters, or a date/number filter's range (expiry_date_gte).
    for (const t of decl.tabs ?? [])
      for (const k of Object.keys(t.filter))
        expect(
          decl.fields.find((f) => f.source === k.replace(/_(gte|lte)$/, ''))?.filter,
          `tab ${t.id} filters ${k}`,
        ).toBe(true);
    for (const alias of Object.values(decl.filterAliases ?? {})) expect(sources.has(alias)).toBe(true);
    expect(decl.fields.some((f) => hasView(f, 'list'))).toBe(true);
  });
});

describe('engine:sql', () => {
  it('indexes each field on what its list compares: a choice on its column, a text field as sorted and filtered', () => {
    const lines = createTableSql(declarations.find((d) => d.name === 'timesheet_lines')!);
    expect(lines).toContain('create index timesheet_lines_status on timesheet_lines (merchant_id, status);');
    expect(lines).not.toContain('lower(status)');
    const sites = createTableSql(declarations.find((d) => d.name === 'sites')!);
    expect(sites).toContain(
      'create index sites_business_unit on sites (merchant_id, lower(business_unit)) where deleted_at is null;',
    );
    expect(sites).toContain(
      'create index sites_business_unit_filter on sites (merchant_id, business_unit) where deleted_at is null;',
    );
    expect(sites).toContain('create index sites_region on sites (merchant_id, region) where deleted_at is null;');
  });

  // It starts the CLI (tsx compiling the server) as a child process: seconds on a quiet machine, more on a busy one.
  it('prints a migration that creates a table the drift checks accept', { timeout: 120_000 }, async () => {
    const other = await openTestDb();
    try {
      await migrate(other.db);
      const decl = {
        ...declarations.find((d) => d.name === 'staff_statuses')!,
        name: 'staff_statuses_copy',
        table: 'staff_statuses_copy',
      };
      for (const statement of createTableSql(decl).split(/;\n/)) await other.db.query(statement);
      const cols = await other.db.query<{ column_name: string; data_type: string }>(
        `select column_name, data_type from information_schema.columns where table_schema = current_schema() and table_name = 'staff_statuses_copy'`,
      );
      expect(cols.map((c) => c.column_name).sort()).toEqual(
        [...decl.fields.map((f) => f.source), ...systemColumns(decl)].sort(),
      );
    } finally {
      await other.close();
    }
  });
});
