import type { Queryable } from './index.js';

/**
 * Below this many rows known to the planner a table is young: its statistics (or their absence, before the first
 * ANALYZE) cannot tell the planner that `merchant_id = $1` matches most of it.
 */
export const YOUNG_TABLE_ROWS = 10_000;

/**
 * Analyzes each of `tables` (declared names, never a caller's text) in this transaction when the planner knows of
 * fewer than `below` rows of it (YOUNG_TABLE_ROWS unless told); otherwise does nothing. One statement either way.
 *
 * Why: a foreign key check is a query the server plans once per connection and keeps. Against a table the planner has
 * no statistics for (a new database, the pay run bench), every index starting with merchant_id looked as cheap as the
 * unique key, and the check of a payslip line found its payslip through `payslips_candidate_year`, reading every
 * payslip of the agency: each step of a 5,000-staff run read all the payslips the steps before it wrote, for each of
 * its 5,250 lines (docs/decisions.md, "Issue 33 — the pay run's 10 seconds"). Analyzed, the statistics say one
 * agency's key matches every row, so the check is planned again on the unique key. A larger table keeps the
 * statistics autovacuum keeps. ANALYZE sees this transaction's own rows, and holds the table's SHARE UPDATE EXCLUSIVE
 * lock to the end of it (autovacuum waits), which is why only young tables are analyzed.
 */
export async function analyzeIfYoung(
  db: Queryable,
  tables: string | string[],
  below: number = YOUNG_TABLE_ROWS,
): Promise<void> {
  const names = typeof tables === 'string' ? [tables] : tables;
  for (const table of names) if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`not a table name: ${table}`);
  await db.query(
    `do $$ begin
       ${names
         .map(
           (table) =>
             `if (select reltuples from pg_class where oid = to_regclass('${table}')) < ${below} then analyze ${table}; end if;`,
         )
         .join('\n       ')}
     end $$`,
  );
}

/**
 * Analyzes each of `tables` (declared names) that has never been analyzed (nor vacuumed: the planner knows no row
 * count, `reltuples` -1), in one statement; a table analyzed once is left to its statistics, which the planner scales
 * by the table's size as it grows. For the small tables a large read joins by key (staff, sites, roles): never
 * analyzed, the planner takes each to hold one row and joins them by scanning all of them for every row read (an
 * invoice run's read of 2,000 lines scanned 1,000 staff for each: a million rows). PGlite has no autovacuum, so an
 * embedded database's tables stay that way until something analyzes them; on PostgreSQL autovacuum gets there within
 * minutes, and this costs one catalog read.
 */
export const analyzeIfNeverAnalyzed = (db: Queryable, tables: string[]): Promise<void> => analyzeIfYoung(db, tables, 0);
