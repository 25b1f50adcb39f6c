import type { Db, Queryable } from '../../server/db';
import { declarations } from '../../core/resources/declarations';

/**
 * The audit trail holds an entry for every write (issue 16): after each API test file, every row that file
 * inserted, changed or deleted in a declared resource's table has an entry of that resource and record, on PGlite
 * and PostgreSQL alike. A trigger installed in the file's database when it opens (never in the product's
 * migrations) notes each such row write in `audit_check_writes`; `verifyAuditCompleteness` counts them against the
 * entries written since, per record, when the file closes its database.
 *
 * What is not counted, and why:
 *  - undeclared tables (sessions, sign-in throttles, jobs, the outbox's delivery state, files, number series,
 *    capability links): no resource, no history to show;
 *  - resources declared `audited: false` (the audit trail itself, the e-mail report);
 *  - a database made empty (`openTestDb('empty')`): the file migrates it itself, so there are no tables to watch
 *    when it opens, and nothing there runs through the engine;
 *  - the columns and rows in EXCEPTIONS below (derived columns);
 *  - a test's own SQL that sets up a state behind the engine's back (a shift worked two days ago, an expired
 *    document), marked with `fixtureWrite` or `markFixture`: the test wrote it, not the product.
 */

/**
 * Per table: columns whose change alone is no change of the record (`ignore`), and rows that are no record of the
 * resource (`outside`, as column values), each with why.
 */
const EXCEPTIONS: Record<string, { ignore?: string[]; outside?: Record<string, unknown> }> = {
  candidates: {
    // Derived from the documents and recomputed after each upload (server/services/compliance.ts): not a change
    // anyone made, so no version (an open form would go stale on every upload) and no entry.
    ignore: ['compliance_complete', 'compliance_valid_until'],
  },
  // The sums of a timesheet's lines and its revision, recomputed when lines change (server/services/timesheets.ts):
  // each line's change has its own version and entry, as the staff member's compliance columns above.
  timesheets: {
    ignore: ['line_count', 'payable_lines', 'paid_minutes', 'pay', 'charge', 'on_costs', 'margin', 'revision'],
  },
  // The reminder job's own bookkeeping: when it sent the reminder (server/notifications/diaryReminders.ts).
  diary_notes: { ignore: ['reminded_at'] },
};

/** Each watched table with the resource names its entries are filed under. */
function watchedTables(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const d of declarations) {
    if (d.audited === false) continue;
    if (!out.has(d.table)) out.set(d.table, new Set());
    out.get(d.table)!.add(d.name);
  }
  return out;
}

const FIXTURE_SETTING = 'audit_check.fixture';

/**
 * Installs the trigger on every watched table of `db` and answers the last audit entry before the file's writes.
 * Answers null when the database has no tables yet (an empty one).
 */
export async function installAuditCheck(db: Db): Promise<number | null> {
  const present = await db.query<{ table_name: string; table_type: string }>(
    `select table_name, table_type from information_schema.tables where table_schema = current_schema()`,
  );
  // audit_log is the trail's view since migration 120 (single-record rows and sets), a table before it.
  if (!present.some((r) => r.table_name === 'audit_log')) return null;
  const tables = new Set(present.filter((r) => r.table_type === 'BASE TABLE').map((r) => r.table_name));
  const watched = [...watchedTables().keys()].filter((t) => tables.has(t));
  await db.query(`
    create table audit_check_writes (
      seq bigserial primary key,
      tbl text not null,
      record_id integer not null,
      op text not null,
      versioned boolean not null
    )`);
  await db.query(`
    create function audit_check_note() returns trigger language plpgsql as $$
    declare
      rule jsonb := tg_argv[0]::jsonb;
      ignored text[] := array(select jsonb_array_elements_text(rule->'ignore')) || array['updated_at'];
      written jsonb := to_jsonb(case when tg_op = 'DELETE' then old else new end);
    begin
      if coalesce(current_setting('${FIXTURE_SETTING}', true), '') = 'on' then return null; end if;
      if rule ? 'outside' and written @> (rule->'outside') then return null; end if;
      if tg_op = 'INSERT' then
        insert into audit_check_writes (tbl, record_id, op, versioned) values (tg_table_name, new.id, 'insert', true);
      elsif tg_op = 'DELETE' then
        insert into audit_check_writes (tbl, record_id, op, versioned) values (tg_table_name, old.id, 'delete', true);
      elsif (to_jsonb(old) - ignored) is distinct from (to_jsonb(new) - ignored) then
        insert into audit_check_writes (tbl, record_id, op, versioned)
          values (tg_table_name, new.id, 'update', new.version is distinct from old.version);
      end if;
      return null;
    end $$`);
  for (const t of watched) {
    const rule = JSON.stringify({ ignore: [], ...EXCEPTIONS[t] }).replace(/'/g, "''");
    await db.query(
      `create trigger audit_check after insert or update or delete on ${t} for each row execute function audit_check_note('${rule}')`,
    );
  }
  const [{ last }] = await db.query<{ last: number }>('select coalesce(max(id), 0)::int as last from audit_log');
  return last;
}

/** Fails, naming each table and its rows, when a write noted since `since` has no audit entry or no new version. */
export async function verifyAuditCompleteness(db: Db, since: number): Promise<void> {
  const writes = await db.query<{ tbl: string; record_id: number; ops: string[]; unversioned: number }>(
    `select tbl, record_id, array_agg(op order by seq) as ops, count(*) filter (where not versioned)::int as unversioned
       from audit_check_writes group by tbl, record_id order by tbl, record_id`,
  );
  if (writes.length === 0) return;
  const entries = await db.query<{ resource: string; record_id: number; n: number }>(
    'select resource, record_id, count(*)::int as n from audit_log where id > $1 group by resource, record_id',
    [since],
  );
  const entriesOf = new Map(entries.map((e) => [`${e.resource} ${e.record_id}`, e.n]));
  const watched = watchedTables();
  const missing = new Map<string, string[]>();
  const note = (table: string, what: string) => {
    if (!missing.has(table)) missing.set(table, []);
    missing.get(table)!.push(what);
  };
  for (const w of writes) {
    const n = [...watched.get(w.tbl)!].reduce((sum, name) => sum + (entriesOf.get(`${name} ${w.record_id}`) ?? 0), 0);
    if (n < w.ops.length) note(w.tbl, `row ${w.record_id} (${w.ops.join(', ')}: ${n} entries)`);
    if (w.unversioned) note(w.tbl, `row ${w.record_id} (${w.unversioned} change(s) without a new version)`);
  }
  if (missing.size === 0) return;
  const lines = [...missing].map(
    ([table, rows]) =>
      `  ${table}: ${rows.slice(0, 12).join('; ')}${rows.length > 12 ? `; and ${rows.length - 12} more` : ''}`,
  );
  throw new Error(
    `Writes without an audit entry or a new version in this file (tests/api/auditCheck.ts):\n${lines.join('\n')}`,
  );
}

/**
 * Marks the rest of the transaction `tx` as the test's own set-up, written behind the engine's back on purpose (a
 * state the API cannot reach, such as a shift in the past): the audit completeness check does not count it.
 */
export async function markFixture(tx: Queryable): Promise<void> {
  await tx.query(`select set_config('${FIXTURE_SETTING}', 'on', true)`);
}

/** One statement of a test's own set-up (see markFixture), in a transaction of its own. */
export function fixtureWrite<T extends Record<string, any> = Record<string, any>>(
  db: Db,
  sql: string,
  params?: unknown[],
): Promise<T[]> {
  return db.transaction(async (tx) => {
    await markFixture(tx);
    return tx.query<T>(sql, params);
  });
}
