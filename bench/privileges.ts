import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { buildApp } from '../server/app';
import type { Db } from '../server/db';
import { LoginThrottle } from '../server/auth/throttle';
import { declarations } from '../core/resources/declarations';
import { privilegeRows } from '../core/resources/roles/privileges';
import {
  announceRun,
  median,
  onEachDatabase,
  runAlone,
  type Benchmark,
  type BenchmarkResult,
  type Metric,
} from './lib';
import { BENCH_EMAIL, BENCH_PASSWORD, seed } from './lists';
import { load, type Load, type Req } from './shiftList';

/**
 * Stored privileges on every request (issue 35, "Performance"): the staff list's p99 at CONNECTIONS connections as
 * the agency's built-in admin and as a user of a custom role granted every privilege admin has (the same rows
 * answered), alternating round by round (and which goes first) on the same data, so each ratio compares runs under
 * the same load of a shared machine. Goal: the custom role adds at most 5% to the p99 (ratio ≤ 1.05, median of the
 * rounds).
 *
 * For each database (PostgreSQL in a throwaway schema by default; `--db pglite` too): seeds STAFF staff
 * (bench/lists.ts), signs in both users, and loads GET /api/candidates as the staff list asks it (active, by last
 * name, pages 1-20 of 25) from a child process (bench/shiftList.ts's load generator).
 *
 * `npm run bench -- privileges`, or alone: `npx tsx bench/privileges.ts [--db pglite|postgres]`.
 * Knobs: BENCH_PRIVILEGES_SECONDS (15), BENCH_PRIVILEGES_ROUNDS (3), BENCH_PRIVILEGES_CONNECTIONS (50).
 */

const STAFF = 10_000;
const SECONDS = Number(process.env.BENCH_PRIVILEGES_SECONDS || 15);
const ROUNDS = Number(process.env.BENCH_PRIVILEGES_ROUNDS || 3);
const CONNECTIONS = Number(process.env.BENCH_PRIVILEGES_CONNECTIONS || 50);
const PER_PAGE = 25;
const PAGES = 20;
const GOAL_RATIO = 1.05;
const CUSTOM_EMAIL = 'bench-custom@bench.test';

type Kind = 'pglite' | 'postgres';
const LABEL: Record<Kind, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

async function benchOne(kind: Kind, raw: Db, version: string) {
  const label = LABEL[kind];
  const log = (s: string) => console.log(`  [${label}] ${s}`);
  const { merchantId } = await seed(raw, STAFF);
  const app = await buildApp({
    db: raw,
    config: { tokenLifetimeSeconds: 3600, staticDir: undefined, rateLimitPerMinute: 100_000_000 },
    throttle: new LoginThrottle(),
  });
  const origin = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const signIn = async (email: string) => {
      const res = await fetch(`${origin}/api/admin_login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: BENCH_PASSWORD }),
      });
      if (res.status !== 200) throw new Error(`sign-in of ${email} answered ${res.status}: ${await res.text()}`);
      return { authorization: `Bearer ${(await res.json()).token}` };
    };
    const admin = await signIn(BENCH_EMAIL);
    // Every privilege a custom role can hold (everything admin is declared to do), made as an admin makes it.
    const privileges = privilegeRows(declarations).flatMap((r) => r.privileges.map((p) => p.key));
    const made = await fetch(`${origin}/api/agency_roles`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench: every privilege', privileges, business_unit_ids: [] }),
    });
    if (made.status !== 201) throw new Error(`the role answered ${made.status}: ${await made.text()}`);
    const roleId = (await made.json()).data.id as number;
    // Its holder signs in with the admin's password (the bench's own set-up: an invitation needs the outbox).
    await raw.query(
      `insert into users (merchant_id, kind, name, email, password_hash, role, agency_role_id)
       select merchant_id, 'admin', 'Bench Custom', $2, password_hash, 'custom', $3 from users
        where merchant_id = $4 and lower(email) = lower($1)`,
      [BENCH_EMAIL, CUSTOM_EMAIL, roleId, merchantId],
    );
    const custom = await signIn(CUSTOM_EMAIL);

    const path = (p: number) =>
      `/api/candidates?page=${p}&per_page=${PER_PAGE}&status_value=approved&activated_value=true&sort=last_name&order=asc`;
    let s = 7;
    const rnd = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    const reqs: Req[] = Array.from({ length: 1000 }, () => ({ path: path(1 + Math.floor(rnd() * PAGES)) }));
    // The same rows for both, or the comparison means nothing.
    for (const p of [1, PAGES]) {
      const [a, b] = await Promise.all(
        [admin, custom].map((h) => fetch(`${origin}${path(p)}`, { headers: h }).then((r) => r.text())),
      );
      if (a !== b) throw new Error(`the admin and the custom role answer page ${p} differently`);
    }
    const job = (headers: Record<string, string>) => ({
      origin,
      headers,
      connections: CONNECTIONS,
      requests: reqs,
      warmup: reqs,
      cycle: true,
      seconds: SECONDS,
    });
    log(`staff list: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s each, admin and custom alternating…`);
    const say = (l: Load) => `${l.rps.toFixed(0)} req/s, p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms`;
    const rounds: { admin: Load; custom: Load; load: number }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      // Who goes first alternates too: a later run inherits a warmer (or busier) machine.
      const [a, c] =
        r % 2 === 0
          ? [await load(raw, job(admin)), await load(raw, job(custom))]
          : [await load(raw, job(custom)), await load(raw, job(admin))].reverse();
      rounds.push({ admin: a, custom: c, load: loadavg()[0] });
      log(
        `round ${r + 1}: admin ${say(a)}; custom role ${say(c)}; p99 ratio ${(c.p99 / a.p99).toFixed(3)}; load ${loadavg()[0].toFixed(2)}`,
      );
    }
    const ratios = rounds.map((r) => r.custom.p99 / r.admin.p99);
    const metrics: Metric[] = [
      {
        name: `${label}: staff list p99, admin, ${CONNECTIONS} conns, median round`,
        value: round(median(rounds.map((r) => r.admin.p99))),
        unit: 'ms',
      },
      {
        name: `${label}: staff list p99, custom role (every privilege), median round`,
        value: round(median(rounds.map((r) => r.custom.p99))),
        unit: 'ms',
      },
      {
        name: `${label}: staff list p99, custom role ÷ admin, median of rounds`,
        value: round(median(ratios), 3),
        unit: '×',
        target: GOAL_RATIO,
      },
    ];
    const brief = (l: Load) => ({ rps: Math.round(l.rps), p50_ms: round(l.p50), p99_ms: round(l.p99) });
    return {
      metrics,
      plans: [],
      details: {
        database: version,
        staff: STAFF,
        rounds: rounds.map((r) => ({
          admin: brief(r.admin),
          custom_role: brief(r.custom),
          p99_ratio: round(r.custom.p99 / r.admin.p99, 3),
          load_average_after: round(r.load),
        })),
      },
    };
  } finally {
    await app.close();
  }
}

export async function runPrivileges(kinds: Kind[] = ['postgres']): Promise<BenchmarkResult> {
  const before = announceRun(`${STAFF} staff, the staff list as admin and as a custom role`);
  const details: Record<string, unknown> = {
    load_average_before: round(before),
    connections: CONNECTIONS,
    seconds: SECONDS,
    rounds: ROUNDS,
  };
  const metrics = await onEachDatabase(kinds, LABEL, details, benchOne);
  details.load_average_after = round(loadavg()[0]);
  return { metrics, details };
}

export const privileges: Benchmark = {
  name: 'privileges',
  description: `staff list p99 at ${CONNECTIONS} connections, built-in admin beside a custom role with every privilege (PostgreSQL)`,
  run: () => runPrivileges(),
};

// Alone: npx tsx bench/privileges.ts [--db pglite|postgres]
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runAlone('privileges', runPrivileges, LABEL);
