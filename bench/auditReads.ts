import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import type { Db } from '../server/db';
import { migrate } from '../server/db/migrate';
import { createAgency } from '../server/seed/index';
import { Params } from '../server/engine/compile';
import { insertAuditSetSql, insertAuditSql } from '../server/engine/audit';
import type { EnginePrincipal } from '../server/engine/context';
import { systemContext } from '../server/engine/routes';
import { listRowPages } from '../server/exports/rows';
import { auditEntriesBehaviour } from '../server/behaviours/auditEntries';
import {
  announceRun,
  median,
  onEachDatabase,
  runAlone,
  signedInApp,
  type Benchmark,
  type BenchmarkResult,
} from './lib';

/**
 * The audit trail's reads without a record or subject filter (docs/decisions.md, "Review — the audit trail's
 * unfiltered reads"), over a trail of SETS sets of PER entries each (1,000,000 set entries by default), written as a
 * transition writes them (two distinct changes), or one in CREATED_EVERY as createMany does (each entry its own
 * change), and ROWS single-record rows, the sets and rows interleaved in time, in one agency (another agency holds a
 * tenth as much). Through the API in process, as the agency's admin:
 *  - the agency-wide list's first page with its count (GET /api/audit_entries, the count not yet known: after any
 *    write), the same page with its count known, page 400 (entries 9,976–10,000), a show by id of an entry in the
 *    middle of a set of the middle of the trail and of a single-record row, and an export's first ten pages of
 *    1,000 entries (the export's own reader, listRowPages);
 *  - each beside the same read through the view `audit_log` (an app whose audit entries declare no source builders:
 *    the engine's reads before the change), VIEW_ROUNDS times (slow: they expand every set; with createMany's sets
 *    among them, each entry takes its change out of its set's whole array: minutes a read), 0 for none.
 * Medians of ROUNDS; the load average before and after each database's run is in the details.
 *
 * `npm run bench -- auditReads` (PostgreSQL only), or alone: `npx tsx bench/auditReads.ts [--db pglite|postgres]`.
 * Knobs: BENCH_AUDIT_SETS (200), BENCH_AUDIT_PER_SET (5000), BENCH_AUDIT_ROWS (50000), BENCH_AUDIT_VIEW_ROUNDS (1),
 * BENCH_AUDIT_CREATED_EVERY (0: no createMany set).
 */
const SETS = Number(process.env.BENCH_AUDIT_SETS || 200);
const PER = Number(process.env.BENCH_AUDIT_PER_SET || 5000);
const ROWS = Number(process.env.BENCH_AUDIT_ROWS || 50_000);
const ROUNDS = 5;
const VIEW_ROUNDS = Number(process.env.BENCH_AUDIT_VIEW_ROUNDS ?? 1);
/** Every how many sets one is written as createMany writes them (each entry its own change); 0: none. */
const CREATED_EVERY = Number(process.env.BENCH_AUDIT_CREATED_EVERY || 0);

type Kind = 'pglite' | 'postgres';
const LABEL: Record<Kind, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };

const who = (merchantId: number): EnginePrincipal => ({
  userId: 0,
  name: 'Bench',
  loginType: 'agency',
  role: 'admin',
  merchantId,
  clientId: null,
});

/** `sets` sets and `rows` single-record rows over `hours` hours, written by the product's own statements. */
async function seedTrail(db: Db, merchantId: number, sets: number, per: number, rows: number) {
  const start = Date.UTC(2026, 0, 1);
  for (let s = 0; s < sets; s++) {
    const at = new Date(start + s * 3_600_000).toISOString();
    const perSlot = Math.floor(rows / sets) + (s < rows % sets ? 1 : 0);
    const p = new Params();
    // The slot's single-record rows, a second apart, around its set.
    await db.query(
      insertAuditSql(
        who(merchantId),
        p.bind,
        { resource: 'shifts', subjectResource: 'shifts', event: 'update' },
        {
          from: `generate_series(1, ${perSlot}) as i`,
          recordId: `(${s * 1000} + i)::int`,
          subjectId: `(${s * 1000} + i)::int`,
          changes: `jsonb_build_object('notes', jsonb_build_object('from', null, 'to', 'Note ' || i))`,
          input: 'null::jsonb',
          at: `${p.bind(at)}::timestamptz + make_interval(secs => i * 3)`,
        },
      ),
      p.values,
    );
    const q = new Params();
    const created = CREATED_EVERY > 0 && s % CREATED_EVERY === 0;
    const first = s * per + 1;
    await db.query(
      insertAuditSetSql(
        who(merchantId),
        q.bind,
        {
          resource: 'timesheet_lines',
          subjectResource: 'timesheets',
          event: created ? 'create' : 'action',
          action: created ? null : 'verify',
        },
        {
          from: `(select array(select ${first} + i from generate_series(0, ${per - 1}) as i) as record_ids,
                         array(select (${first} + i) / 20 from generate_series(0, ${per - 1}) as i) as subject_ids) as s`,
          changes: created
            ? `array(select jsonb_build_object('hours', jsonb_build_object('from', null, 'to', 7.5), 'description',
                 jsonb_build_object('from', null, 'to', md5(i::text) || ' ' || md5((i * 7)::text)), 'amount',
                 jsonb_build_object('from', null, 'to', 9000 + i % 500)) from generate_series(1, ${per}) as i)`
            : `array['{"status":{"from":"pending","to":"verified"}}'::jsonb, '{"status":{"from":"disputed","to":"verified"}}'::jsonb]`,
          which: created
            ? `array(select generate_series(1, ${per}))`
            : `array(select 1 + (i % 10 = 0)::int from generate_series(1, ${per}) as i)`,
          input: `${q.bind(JSON.stringify({ reason: 'Checked against the sign-in sheets' }))}::jsonb`,
          at: `${q.bind(at)}::timestamptz + interval '30 minutes'`,
        },
      ),
      q.values,
    );
  }
}

async function benchOne(kind: Kind, db: Db, version: string) {
  const label = LABEL[kind];
  const log = (s: string) => console.log(`  [${label}] ${s}`);
  const loadBefore = loadavg()[0];
  const t0 = performance.now();
  await migrate(db);
  const agency = (email: string) =>
    db.transaction(
      async (tx) =>
        (
          await createAgency(tx, {
            companyName: `Bench Trail ${email}`,
            adminName: 'Bench Admin',
            email,
            password: 'bench-password-1',
          })
        ).merchantId,
    );
  const merchantId = await agency('trail@bench.test');
  const otherId = await agency('other-trail@bench.test');
  await seedTrail(db, merchantId, SETS, PER, ROWS);
  await seedTrail(db, otherId, Math.max(1, SETS / 10), PER, ROWS / 10);
  await db.query('vacuum analyze audit_rows');
  await db.query('vacuum analyze audit_sets');
  const [{ n }] = await db.query<{ n: number }>('select count(*)::int as n from audit_log where merchant_id = $1', [
    merchantId,
  ]);
  log(
    `seeded ${n.toLocaleString('en-GB')} entries (${SETS} sets of ${PER}, ${ROWS} rows) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const [middle] = await db.query<{ set_entry: number; row_entry: number }>(
    `select (select ids[${Math.ceil(PER / 2)}] from audit_sets where merchant_id = $1 order by created_at offset ${Math.floor(SETS / 2)} limit 1) as set_entry,
            (select id from audit_rows where merchant_id = $1 order by created_at offset ${Math.floor(ROWS / 2)} limit 1) as row_entry`,
    [merchantId],
  );
  const product = await signedInApp(db, 'trail@bench.test', 'bench-password-1');
  const view = await signedInApp(db, 'trail@bench.test', 'bench-password-1', {
    behaviours: { audit_entries: { computedFilters: auditEntriesBehaviour.computedFilters } },
  });
  type Signed = typeof product;
  const get = async (a: Signed, url: string, expect?: (body: any) => void) => {
    const t = performance.now();
    const res = await a.app.inject({ method: 'GET', url, headers: a.headers });
    const ms = performance.now() - t;
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
    expect?.(res.json());
    return { ms, body: res.body };
  };
  const reads: { name: string; run: (a: Signed) => Promise<{ ms: number; body: string }> }[] = [
    {
      name: 'the first page and its count (count not known)',
      run: (a) => {
        a.app.totals.clear();
        return get(a, '/api/audit_entries', (b) => {
          if (b.total_count !== n || b.data.length !== 25) throw new Error(`page: ${b.total_count}, ${b.data.length}`);
        });
      },
    },
    { name: 'the first page (count known)', run: (a) => get(a, '/api/audit_entries') },
    { name: 'page 400 (entries 9,976–10,000)', run: (a) => get(a, '/api/audit_entries?page=400') },
    { name: 'a set entry by id', run: (a) => get(a, `/api/audit_entries/${middle.set_entry}`) },
    { name: 'a single-record entry by id', run: (a) => get(a, `/api/audit_entries/${middle.row_entry}`) },
    {
      name: 'an export’s first 10 pages of 1,000',
      run: async (a) => {
        const ctx = await systemContext(a.app, db, merchantId);
        const t = performance.now();
        const ids: number[] = [];
        let pages = 0;
        for await (const rows of listRowPages(ctx, a.app.engine.get('audit_entries')!, {})) {
          ids.push(...rows.map((r) => Number(r.id)));
          if (++pages === 10) break;
        }
        return { ms: performance.now() - t, body: ids.join(',') };
      },
    },
  ];
  const metrics = [];
  const details: Record<string, unknown> = { database: version, entries: n, sets: SETS, per_set: PER, rows: ROWS };
  try {
    for (const r of reads) {
      await r.run(product); // warm-up (statements prepared, caches)
      const after: number[] = [];
      for (let i = 0; i < ROUNDS; i++) after.push((await r.run(product)).ms);
      const before: number[] = [];
      let same = true;
      for (let i = 0; i < VIEW_ROUNDS; i++) {
        const v = await r.run(view);
        const p = await r.run(product);
        same &&= v.body === p.body;
        before.push(v.ms);
      }
      if (!same) throw new Error(`${r.name}: the product's answer differs from the view's`);
      const a = median(after);
      const b = before.length ? median(before) : undefined;
      log(
        `${r.name}: ${a.toFixed(1)} ms` +
          (b === undefined ? '' : ` (through the view ${b.toFixed(0)} ms, ${(b / a).toFixed(0)}×); same answer`),
      );
      metrics.push({
        name: `${label}: audit trail, ${r.name}, at ${n.toLocaleString('en-GB')} entries`,
        value: +a.toFixed(1),
        unit: 'ms',
        ...(b === undefined
          ? {}
          : { anchor: +b.toFixed(0), anchorNote: 'the same read through the view audit_log (before)' }),
      });
      details[r.name] = { after_ms: after.map((x) => +x.toFixed(1)), view_ms: before.map((x) => +x.toFixed(0)) };
    }
  } finally {
    await product.app.close();
    await view.app.close();
  }
  details.load_average_before = +loadBefore.toFixed(2);
  details.load_average_after = +loadavg()[0].toFixed(2);
  log(`load average ${loadBefore.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after`);
  return { metrics, plans: [], details };
}

export async function runAuditReads(kinds: Kind[] = ['postgres']): Promise<BenchmarkResult> {
  const load = announceRun(`the audit trail's unfiltered reads at ${(SETS * PER).toLocaleString('en-GB')} set entries`);
  const details: Record<string, unknown> = { load_average_before: +load.toFixed(2) };
  const metrics = await onEachDatabase(kinds, LABEL, details, benchOne);
  return { metrics, details };
}

export const auditReads: Benchmark = {
  name: 'auditReads',
  description: `the audit trail's agency-wide page, count, show by id and export at ${SETS * PER} set entries (PostgreSQL)`,
  run: () => runAuditReads(),
};

// Alone: npx tsx bench/auditReads.ts [--db pglite|postgres]
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runAlone('auditReads', runAuditReads, LABEL);
