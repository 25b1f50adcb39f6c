import type { FieldDeclaration, ResourceDeclaration } from '../../core/engine/types.js';
import { deletionOf, keepsNumbers } from '../../core/engine/lifecycle.js';

/** The PostgreSQL column type of a declared field, as information_schema names it. */
export function columnType(f: FieldDeclaration): string {
  switch (f.type) {
    case 'number':
      return f.integer ? 'integer' : 'numeric';
    case 'money':
      return 'bigint';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'datetime':
      return 'timestamp with time zone';
    case 'reference':
      return 'integer';
    case 'references':
    case 'choices':
      return 'ARRAY';
    case 'address':
    case 'json':
      return 'jsonb';
    default:
      return 'text';
  }
}

const SQL_TYPE: Record<string, string> = { ARRAY: 'integer[]', 'timestamp with time zone': 'timestamptz' };
/** Field types stored as text: kept unique case-insensitively. */
export const TEXT_TYPES = new Set(['text', 'longtext', 'email', 'phone', 'choice']);
/**
 * Whether a list sorts the field on lower(field). A choice does not: its stored values are the declared ids, compared
 * exactly by its filter, so one plain index serves both its filter and its sort.
 */
export const sortsCaseless = (f: FieldDeclaration) => TEXT_TYPES.has(f.type) && f.type !== 'choice' && !f.computed;

/** Columns the engine manages on every table besides the declared fields. */
export function systemColumns(decl: ResourceDeclaration): string[] {
  return [
    'id',
    'merchant_id',
    'created_at',
    'updated_at',
    'version',
    ...(deletionOf(decl).mode === 'soft' ? ['deleted_at'] : []),
    ...(decl.search?.length ? ['search_text'] : []),
    ...(decl.customFields ? ['custom_fields'] : []),
  ];
}

/**
 * The migration a new declaration needs: its table, the indexes that serve its sorts, filters and search,
 * and its unique rules. `npm run engine:sql -- <resource>` prints it to start a migration from.
 */
export function createTableSql(decl: ResourceDeclaration): string {
  const t = decl.table;
  const live = deletionOf(decl).mode === 'soft' ? ' where deleted_at is null' : '';
  const cols = ['  id serial primary key', '  merchant_id integer not null references merchants(id) on delete cascade'];
  const refs: string[] = [];
  for (const f of decl.fields) {
    if (f.source === 'created_at' || f.computed) continue;
    let sql = `  ${f.source} ${f.type === 'choices' ? 'text[]' : (SQL_TYPE[columnType(f)] ?? columnType(f))}`;
    // A reference carries the agency in its key, so it can never point into another agency.
    if (f.type === 'reference' && f.reference)
      refs.push(`  foreign key (merchant_id, ${f.source}) references ${f.reference} (merchant_id, id)`);
    if (f.type === 'references' || f.type === 'choices') sql += ` not null default '{}'`;
    else if (f.type === 'boolean') sql += ` not null default ${f.defaultValue === true}`;
    else if (f.required) sql += ' not null';
    if (f.type === 'choice' && f.choices)
      sql += ` check (${f.source} in (${f.choices.map((c) => `'${c.id.replace(/'/g, "''")}'`).join(', ')}))`;
    cols.push(sql);
  }
  if (decl.customFields) cols.push(`  custom_fields jsonb not null default '{}'::jsonb`);
  cols.push(
    '  created_at timestamptz not null default now()',
    '  updated_at timestamptz not null default now()',
    '  version integer not null default 1',
  );
  if (deletionOf(decl).mode === 'soft') cols.push('  deleted_at timestamptz');
  if (decl.search?.length) {
    const parts = decl.search.map((s) =>
      decl.fields.find((f) => f.source === s)?.required ? s : `coalesce(${s}, '')`,
    );
    cols.push(`  search_text text generated always as (lower(${parts.join(` || ' ' || `)})) stored`);
  }
  cols.push('  unique (merchant_id, id)', ...refs);
  const out = [`create table ${t} (\n${cols.join(',\n')}\n);`];
  for (const f of decl.fields.filter((x) => x.type === 'references' && x.reference)) {
    out.push(
      `create trigger ${t}_${f.source}_agency before insert or update of ${f.source} on ${t} for each row execute function check_agency_array_refs('${f.source}', '${f.reference}');`,
    );
  }
  // Each index is on the expression its reader compares: a filter the plain column (`field = $1`), a sort lower(field)
  // for text (sortExpression); an index on the other expression would serve neither.
  for (const f of decl.fields.filter((x) => !x.computed)) {
    const unique = f.unique ? (TEXT_TYPES.has(f.type) ? `lower(${f.source})` : f.source) : undefined;
    if (unique) out.push(`create unique index ${t}_${f.source}_unique on ${t} (merchant_id, ${unique})${live};`);
    const sort = f.sortable ? (sortsCaseless(f) ? `lower(${f.source})` : f.source) : undefined;
    if (sort && sort !== unique) out.push(`create index ${t}_${f.source} on ${t} (merchant_id, ${sort})${live};`);
    if (f.filter && f.source !== sort && f.source !== unique)
      out.push(`create index ${t}_${f.source}${sort ? '_filter' : ''} on ${t} (merchant_id, ${f.source})${live};`);
  }
  // Each number once per agency, whatever writes it (every series' numbers carry their prefix): a duplicate is refused
  // by the database itself. Deleted rows keep theirs.
  if (keepsNumbers(decl))
    out.push(
      `create unique index ${t}_${decl.numbering!.field}_numbered on ${t} (merchant_id, ${decl.numbering!.field});`,
    );
  if (!decl.fields.some((f) => f.source === 'created_at'))
    out.push(`create index ${t}_created on ${t} (merchant_id, created_at)${live};`);
  if (decl.search?.length) out.push(`create index ${t}_search on ${t} using gin (search_text gin_trgm_ops);`);
  return out.join('\n');
}
