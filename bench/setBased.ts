import { pathToFileURL } from 'node:url';
import { buildApp } from '../server/app';
import type { Db, Queryable } from '../server/db';
import { migrate } from '../server/db/migrate';
import { createAgency } from '../server/seed/index';
import { LoginThrottle } from '../server/auth/throttle';
import { systemContext } from '../server/engine/routes';
import { createTableSql } from '../server/engine/ddl';
import type { EngineContext, ResourceBehaviour } from '../server/engine/context';
import type { RecordValues, ResourceDeclaration } from '../core/engine/types';
import { declarations } from '../core/resources/declarations';
import { announceRun, onEachDatabase, runAlone, type Benchmark, type BenchmarkResult } from './lib';
import { sideBySide, sideBySideReport } from './sideBySide';

/**
 * The engine's set-based transition (issue 31.4, "Performance"), on PGlite and PostgreSQL (a throwaway schema at
 * 127.0.0.1):
 *  - declares a bench-only document line (a line of a money document as invoices will have: a parent, a date, hours,
 *    an amount, a lifecycle pending → verified → invoiced (final), a verification's author, time and reason) and
 *    stores N pending lines over 100 documents;
 *  - times `ctx.engine.act('bench_lines', ids, 'verify', { reason })` over all N, as a bulk verify runs it: the rows
 *    locked, every row's state checked, the effect (who and when, in set form as the timesheet lines' bulk verify
 *    declares it), validation, one UPDATE … FROM unnest and every audit entry; beside a bare
 *    `UPDATE … FROM unnest(…)` of the same rows to the same values (state, author, time,
 *    reason, version; no checks, no audit), committed too. The lines are set back to pending between runs (not
 *    timed). The two alternate, ROUNDS times each after WARM_UP warm-ups each; medians. Goal: ≤ 2× the bare update.
 *
 * `npm run bench -- setBased`, or alone: `npx tsx bench/setBased.ts [--db pglite|postgres]`.
 * Knob: BENCH_SET_BASED (10000 lines).
 */
const N = Number(process.env.BENCH_SET_BASED || 10_000);
const DOCUMENTS = 100;
const ROUNDS = 7;
// A bulk action is a path a running server has taken before: measured after three runs of each (with one, the first
// rounds were 1.3–1.9× the later ones while the JavaScript was still being optimised).
const WARM_UP = 3;
const GOAL = 2;

type Kind = 'pglite' | 'postgres';
const LABEL: Record<Kind, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };

const STATES = [
  { id: 'pending', name: 'Pending' },
  { id: 'verified', name: 'Verified' },
  { id: 'invoiced', name: 'Invoiced' },
];
const documents: ResourceDeclaration = {
  name: 'bench_documents',
  table: 'bench_documents',
  label: { one: 'Bench document', many: 'Bench documents' },
  recordRepresentation: '%{title}',
  defaultSort: { field: 'title', order: 'ASC' },
  delete: 'hard',
  access: { admin: ['list', 'show', 'create'] },
  fields: [{ source: 'title', type: 'text', label: 'Title', required: true }],
};
const lines: ResourceDeclaration = {
  name: 'bench_lines',
  table: 'bench_lines',
  label: { one: 'Bench line', many: 'Bench lines' },
  recordRepresentation: '%{description}',
  defaultSort: { field: 'work_date', order: 'ASC' },
  delete: 'hard',
  parent: { resource: 'bench_documents', field: 'document_id', onDelete: 'refuse' },
  access: { admin: ['list', 'show', 'create'] },
  lifecycle: {
    field: 'status',
    final: ['invoiced'],
    transitions: [
      { action: 'verify', from: ['pending'], to: 'verified' },
      { action: 'invoice', from: ['verified'], to: 'invoiced' },
    ],
  },
  actions: [
    {
      name: 'verify',
      label: 'Verify',
      roles: ['admin'],
      bulk: true,
      success: 'Verified',
      input: [{ source: 'reason', type: 'longtext', label: 'Reason', required: true, maxLength: 2000 }],
    },
    { name: 'invoice', label: 'Invoice', roles: ['admin'], bulk: true, success: 'Invoiced' },
  ],
  fields: [
    { source: 'document_id', type: 'reference', reference: 'bench_documents', label: 'Document', required: true },
    { source: 'description', type: 'text', label: 'Description', required: true, maxLength: 200 },
    { source: 'work_date', type: 'date', label: 'Date', required: true },
    { source: 'hours', type: 'number', label: 'Hours' },
    { source: 'amount', type: 'money', label: 'Amount' },
    { source: 'status', type: 'choice', label: 'Status', defaultValue: 'pending', choices: STATES },
    { source: 'verified_by', type: 'text', label: 'Verified by', readOnly: true },
    { source: 'verified_at', type: 'datetime', label: 'Verified at', readOnly: true },
    { source: 'verified_reason', type: 'longtext', label: 'Why verified', readOnly: true },
  ],
};
// Who and when, as the timesheet lines' verify stamps them (server/behaviours/timesheets.ts): one record's effect,
// and the set's, which a bulk verify runs (one stamp for every line).
const stamp = (ctx: EngineContext, input: RecordValues) => ({
  verified_by: ctx.principal.name,
  verified_at: ctx.now.toISOString(),
  verified_reason: input.reason,
});
const behaviour: ResourceBehaviour = {
  actions: { verify: async (ctx, _r, input) => stamp(ctx, input) },
  actionsMany: {
    async verify(ctx, rows, input) {
      const same = stamp(ctx, input);
      return rows.map(() => same);
    },
  },
};

/** The same rows to the same values, bare: one statement over one array per column. */
async function bareUpdate(tx: Queryable, merchantId: number, ids: number[], at: string) {
  await tx.query(
    `update bench_lines l set status = u.status, verified_by = u.verified_by, verified_at = u.verified_at,
            verified_reason = u.verified_reason, updated_at = now(), version = l.version + 1
       from unnest($2::int[], $3::text[], $4::text[], $5::timestamptz[], $6::text[])
            as u(id, status, verified_by, verified_at, verified_reason)
      where l.merchant_id = $1 and l.id = u.id`,
    [
      merchantId,
      ids,
      ids.map(() => 'verified'),
      ids.map(() => 'system'),
      ids.map(() => at),
      ids.map(() => 'Checked against the site’s sign-in sheets'),
    ],
  );
}

async function benchOne(kind: Kind, db: Db, version: string) {
  const label = LABEL[kind];
  const log = (s: string) => console.log(`  [${label}] ${s}`);
  const t0 = performance.now();
  await migrate(db);
  const merchantId = await db.transaction(
    async (tx) =>
      (
        await createAgency(tx, {
          companyName: 'Bench Set-Based',
          adminName: 'Bench Admin',
          email: 'set-based@bench.test',
          password: 'bench-password-1',
        })
      ).merchantId,
  );
  for (const d of [documents, lines]) for (const s of createTableSql(d).split(/;\n/)) await db.query(s);
  await db.query(
    `insert into bench_documents (merchant_id, title) select $1, 'Document ' || i from generate_series(1, $2::int) as i`,
    [merchantId, DOCUMENTS],
  );
  await db.query(
    `insert into bench_lines (merchant_id, document_id, description, work_date, hours, amount, status)
     select $1, d.id, 'Line ' || i, date '2026-01-01' + (i % 300), 7.5, 9000 + i % 500, 'pending'
       from generate_series(1, $2::int) as i
       join (select row_number() over (order by id) - 1 as n, id from bench_documents where merchant_id = $1) d
         on d.n = i % ${DOCUMENTS}`,
    [merchantId, N],
  );
  await db.query('vacuum analyze bench_lines');
  await db.query('vacuum analyze audit_rows');
  await db.query('vacuum analyze audit_sets');
  const ids = (
    await db.query<{ id: number }>('select id from bench_lines where merchant_id = $1 order by id', [merchantId])
  ).map((r) => Number(r.id));
  log(`seeded ${N} lines in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const app = await buildApp({
    db,
    config: { tokenLifetimeSeconds: 3600, staticDir: undefined, rateLimitPerMinute: 100_000_000 },
    throttle: new LoginThrottle(),
    declarations: [...declarations, documents, lines],
    behaviours: { bench_lines: behaviour },
  });
  // Back to pending, untimed: each run verifies the same N lines.
  const reset = () => db.query(`update bench_lines set status = 'pending' where merchant_id = $1`, [merchantId]);
  try {
    const set = async (capture: (tx: Queryable) => Queryable) => {
      await reset();
      const t = performance.now();
      const rows = await db.transaction(async (tx) => {
        const ctx = await systemContext(app, capture(tx), merchantId);
        return ctx.engine.act('bench_lines', ids, 'verify', {
          reason: 'Checked against the site’s sign-in sheets',
        });
      });
      const ms = performance.now() - t;
      if (rows.length !== N || rows.some((r) => r.status !== 'verified'))
        throw new Error(`the set-based verify answered ${rows.length} rows, not ${N} verified`);
      return ms;
    };
    const bare = async () => {
      await reset();
      const t = performance.now();
      await db.transaction((tx) => bareUpdate(tx, merchantId, ids, new Date().toISOString()));
      return performance.now() - t;
    };
    const r = await sideBySide({ subject: set, bare, rounds: ROUNDS, warmUp: WARM_UP });
    const [audited] = await db.query<{ n: number }>(
      `select count(*)::int as n from audit_log where merchant_id = $1 and resource = 'bench_lines' and action = 'verify'`,
      [merchantId],
    );
    if (audited.n !== N * (ROUNDS + WARM_UP))
      throw new Error(`${audited.n} audit entries for ${N * (ROUNDS + WARM_UP)} verifies`);
    const { metrics, details } = sideBySideReport(r, {
      label,
      subject: `set-based transition of ${N} lines (locks, checks, effect, audit)`,
      bare: 'a bare UPDATE … unnest of the same rows',
      ratioName: 'set-based transition ÷ bare UPDATE … unnest',
      goal: GOAL,
      rest: 'JavaScript (checks, effects, the arrays), begin and commit',
      log,
    });
    return {
      metrics,
      plans: [],
      details: { database: version, rows: N, ...details },
    };
  } finally {
    await app.close();
  }
}

export async function runSetBased(kinds: Kind[] = ['pglite', 'postgres']): Promise<BenchmarkResult> {
  const load = announceRun(`set-based transition of ${N} lines`);
  const details: Record<string, unknown> = { load_average_before: +load.toFixed(2) };
  const metrics = await onEachDatabase(kinds, LABEL, details, benchOne);
  return { metrics, details };
}

export const setBased: Benchmark = {
  name: 'setBased',
  description: `ctx.engine.act over ${N} lines (a set-based transition) beside a bare UPDATE … unnest (PGlite, PostgreSQL)`,
  run: () => runSetBased(),
};

// Alone: npx tsx bench/setBased.ts [--db pglite|postgres]
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runAlone('setBased', runSetBased, LABEL);
