import { pathToFileURL } from 'node:url';
import { buildApp } from '../server/app';
import type { Db, Queryable, Row } from '../server/db';
import { LoginThrottle } from '../server/auth/throttle';
import { agencyZone, systemContext } from '../server/engine/routes';
import { addDaysToDate, agencyToday, zonedDateTimeToInstant } from '../core/domain/time/agencyTime';
import { BANDS } from '../core/domain/pricing/types';
import { seedRateSettings } from '../server/seed/rates';
import { announceRun, onEachDatabase, runAlone, type Benchmark, type BenchmarkResult } from './lib';
import { sideBySide, sideBySideReport } from './sideBySide';
import { seed } from './lists';

/**
 * The engine's set-based create (issue 16 item 2, "Performance"), on PostgreSQL (a throwaway schema at 127.0.0.1;
 * `--db pglite` too):
 *  - seeds the bench agency of bench/lists.ts (its job roles; 1,000 staff), 20 clients with 3 sites each, a rate card
 *    per client and job role, the on-cost rates and wage floors, and 20,000 shifts already stored;
 *  - times `ctx.engine.createMany('shifts', rows)` of 10,000 new open shifts (every client, site and role, 300 days,
 *    three start times) from the values a caller gives to the commit: validation, references in scope, the site
 *    within its client, the shifts' set-form hook (pricing every shift), one insert and every audit entry; beside a
 *    bare `INSERT … SELECT FROM unnest(…)` of the same rows as createMany stored them (priced: no checks, no hooks, no
 *    audit, nothing returned), committed too. The two alternate, ROUNDS times each after one warm-up each; medians.
 *    Goal: createMany ≤ 2× the bare insert;
 *  - where createMany's time goes: each statement it ran (captured) and the JavaScript between them.
 *
 * `npm run bench -- createMany`, or alone: `npx tsx bench/createMany.ts [--db pglite|postgres]`.
 * Knob: BENCH_CREATE_MANY (10000 shifts).
 */
const N = Number(process.env.BENCH_CREATE_MANY || 10_000);
const STAFF = 1000;
const CLIENTS = 20;
const EXISTING_SHIFTS = 20_000;
const ROUNDS = 7;
const GOAL = 2;
const TZ = 'Europe/London';

type Kind = 'pglite' | 'postgres';
const LABEL: Record<Kind, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };

/** Clients, sites, rate cards and the shifts already there, all set-based. Answers the clients' sites by client. */
async function seedClients(db: Db, merchantId: number, today: string) {
  await seedRateSettings(db, merchantId);
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into clients (merchant_id, name, status) select $1, 'Bench Client ' || i, 'active' from generate_series(1, $2::int) as i`,
      [merchantId, CLIENTS],
    );
    await tx.query(
      `insert into sites (merchant_id, client_id, name, status)
        select c.merchant_id, c.id, c.name || ' site ' || s, 'active' from clients c cross join generate_series(1, 3) as s
        where c.merchant_id = $1`,
      [merchantId],
    );
    const cols = BANDS.flatMap((b) => [`pay_${b}`, `charge_${b}`]);
    await tx.query(
      `insert into rate_cards (merchant_id, client_id, site_id, job_role_id, effective_from, ${cols.join(', ')})
       select $1, c.id, null, r.id, $2::date - 400, ${BANDS.map((_, i) => `r.default_pay_rate + ${i * 100}, r.default_charge_rate + ${i * 150}`).join(', ')}
         from clients c cross join job_roles r where c.merchant_id = $1 and r.merchant_id = $1`,
      [merchantId, today],
    );
    await tx.query(
      `insert into shifts (merchant_id, client_id, site_id, job_role_id, start_at, end_at, break_minutes, status, paid_minutes, pay, charge, on_costs, margin, created_by)
       select $1, s.client_id, s.id, r.ids[1 + i % array_length(r.ids, 1)], t.s, t.s + interval '8 hours', 30, 'open', 450, 6000, 9000, 900, 2100, 'Bench'
         from generate_series(0, $3::int - 1) as i
         join (select row_number() over (order by id) - 1 as n, id, client_id from sites where merchant_id = $1) s on s.n = i % ${CLIENTS * 3}
         cross join (select array_agg(id order by id) as ids from job_roles where merchant_id = $1) r
         cross join lateral (select ((($2::date + (i % 300))::timestamp + time '07:00') at time zone 'Europe/London') as s) t`,
      [merchantId, today, EXISTING_SHIFTS],
    );
  });
  await db.query('vacuum analyze shifts');
  await db.query('vacuum analyze audit_rows');
  await db.query('vacuum analyze audit_sets');
  const sites = await db.query<{ id: number; client_id: number }>(
    'select id, client_id from sites where merchant_id = $1 order by id',
    [merchantId],
  );
  const roles = await db.query<{ id: number }>('select id from job_roles where merchant_id = $1 order by id', [
    merchantId,
  ]);
  return { sites, roles: roles.map((r) => r.id) };
}

/** The values a caller gives createMany: N open shifts over every site and role, 300 days, three start times. */
function rowsToCreate(today: string, sites: { id: number; client_id: number }[], roles: number[]) {
  return Array.from({ length: N }, (_, i) => {
    const s = sites[i % sites.length];
    const start = zonedDateTimeToInstant(addDaysToDate(today, 1 + (i % 300)), ['07:00', '14:00', '20:00'][i % 3], TZ);
    return {
      client_id: s.client_id,
      site_id: s.id,
      job_role_id: roles[i % roles.length],
      start_at: start.toISOString(),
      end_at: new Date(start.getTime() + (i % 3 === 2 ? 12 : 8) * 3600_000).toISOString(),
      break_minutes: 30,
    };
  });
}

/** The columns the bare insert writes, with the type each is sent as. */
const BARE: [string, string][] = [
  ['client_id', 'int'],
  ['site_id', 'int'],
  ['job_role_id', 'int'],
  ['start_at', 'timestamptz'],
  ['end_at', 'timestamptz'],
  ['break_minutes', 'int'],
  ['sleep_in', 'boolean'],
  ['status', 'text'],
  ['requested_by_client', 'boolean'],
  ['created_by', 'text'],
  ['paid_minutes', 'int'],
  ['pay', 'bigint'],
  ['charge', 'bigint'],
  ['on_costs', 'bigint'],
  ['margin', 'bigint'],
  ['price_lines', 'jsonb'],
  ['rate_card_id', 'int'],
];

/** The same rows as createMany stored them, inserted bare: one statement over one array per column. */
async function bareInsert(tx: Queryable, merchantId: number, stored: Row[]) {
  const arrays = BARE.map(([col, type]) =>
    type === 'jsonb' ? stored.map((r) => JSON.stringify(r[col])) : stored.map((r) => r[col]),
  );
  await tx.query(
    `insert into shifts (merchant_id, ${BARE.map(([c]) => c).join(', ')})
     select $1, * from unnest(${BARE.map(([, type], i) => `$${i + 2}::${type}[]`).join(', ')})`,
    [merchantId, ...arrays],
  );
}

async function benchOne(kind: Kind, db: Db, version: string) {
  const label = LABEL[kind];
  const log = (s: string) => console.log(`  [${label}] ${s}`);
  const t0 = performance.now();
  const { merchantId } = await seed(db, STAFF);
  const today = agencyToday(await agencyZone(db, merchantId));
  const { sites, roles } = await seedClients(db, merchantId, today);
  log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const app = await buildApp({
    db,
    config: { tokenLifetimeSeconds: 3600, staticDir: undefined, rateLimitPerMinute: 100_000_000 },
    throttle: new LoginThrottle(),
  });
  try {
    const rows = rowsToCreate(today, sites, roles);
    let stored: Row[] = [];
    const many = async (capture: (tx: Queryable) => Queryable) => {
      const t = performance.now();
      await db.transaction(async (tx) => {
        const ctx = await systemContext(app, capture(tx), merchantId);
        stored = await ctx.engine.createMany('shifts', rows);
      });
      if (stored.length !== N) throw new Error(`createMany answered ${stored.length} rows, not ${N}`);
      return performance.now() - t;
    };
    const bare = async () => {
      const t = performance.now();
      await db.transaction((tx) => bareInsert(tx, merchantId, stored));
      return performance.now() - t;
    };
    const r = await sideBySide({ subject: many, bare, rounds: ROUNDS });
    const [audited] = await db.query<{ n: number }>(
      `select count(*)::int as n from audit_log where merchant_id = $1 and resource = 'shifts' and event = 'create'`,
      [merchantId],
    );
    if (audited.n !== N * (ROUNDS + 1)) throw new Error(`${audited.n} audit entries for ${N * (ROUNDS + 1)} creates`);
    const { metrics, details } = sideBySideReport(r, {
      label,
      subject: `createMany of ${N} shifts (validation, pricing, audit)`,
      bare: 'a bare INSERT … unnest of the same rows',
      ratioName: 'createMany ÷ bare INSERT … unnest',
      goal: GOAL,
      rest: 'JavaScript (validation, pricing, the arrays), begin and commit',
      log,
    });
    return {
      metrics,
      plans: [],
      details: { database: version, rows: N, existing_shifts: EXISTING_SHIFTS, ...details },
    };
  } finally {
    await app.close();
  }
}

export async function runCreateMany(kinds: Kind[] = ['postgres']): Promise<BenchmarkResult> {
  const load = announceRun(`createMany of ${N} shifts`);
  const details: Record<string, unknown> = { load_average_before: +load.toFixed(2) };
  const metrics = await onEachDatabase(kinds, LABEL, details, benchOne);
  return { metrics, details };
}

export const createMany: Benchmark = {
  name: 'createMany',
  description: `ctx.engine.createMany of ${N} shifts (validation, pricing, audit) beside a bare INSERT … unnest (PostgreSQL)`,
  run: () => runCreateMany(),
};

// Alone: npx tsx bench/createMany.ts [--db pglite|postgres]
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runAlone('createMany', runCreateMany, LABEL);
