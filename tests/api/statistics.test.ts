import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from './helpers';
import { analyzeIfNeverAnalyzed } from '../../server/db/statistics';

// A table the planner knows no row count for is analyzed once (an embedded database has no autovacuum: never
// analyzed, the invoice run's read joined each line to every staff member), and then left to its statistics.
let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ seed: 'none' });
});
afterAll(() => t?.close());

describe('analyzeIfNeverAnalyzed', () => {
  it('analyzes a never-analyzed table, and not again once the planner knows its size', async () => {
    const counts = await t.db.transaction(async (tx) => {
      await tx.query('create temp table stats_probe (x int) on commit drop');
      await tx.query('insert into stats_probe select generate_series(1, 500)');
      const known = async () =>
        Number(
          (await tx.query<{ n: number }>(`select reltuples as n from pg_class where oid = 'stats_probe'::regclass`))[0]
            .n,
        );
      const before = await known();
      await analyzeIfNeverAnalyzed(tx, ['stats_probe']);
      const analyzed = await known();
      await tx.query('insert into stats_probe select generate_series(1, 300)');
      await analyzeIfNeverAnalyzed(tx, ['stats_probe']);
      return { before, analyzed, after: await known() };
    });
    expect(counts).toEqual({ before: -1, analyzed: 500, after: 500 });
  });

  it('refuses anything but a table’s name', async () => {
    await expect(analyzeIfNeverAnalyzed(t.db, ['x; drop table clients'])).rejects.toThrow('not a table name');
  });
});
