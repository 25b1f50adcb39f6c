import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { LoginThrottle } from '../../server/auth/throttle';
import type { Db, Queryable, Row } from '../../server/db';
import { Params } from '../../server/engine/compile';
import { insertAuditSetSql, insertAuditSql } from '../../server/engine/audit';
import type { EnginePrincipal } from '../../server/engine/context';
import { auditEntriesBehaviour } from '../../server/behaviours/auditEntries';
import { systemContext } from '../../server/engine/routes';
import { EXPORT_PAGE, listRowPages } from '../../server/exports/rows';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';

/**
 * The audit trail's reads without a record or subject filter (docs/decisions.md, "Review — the audit trail's
 * unfiltered reads"): the agency-wide page, its count, a show by id and an export read the trail's tables through the
 * audit entries' source builders (server/behaviours/auditEntries.ts) instead of the view `audit_log`, which expanded
 * every set of the agency. Each answer is compared, byte for byte, with the one an app reading the view answers (the
 * same behaviour without its source builders: the engine as it read before), over a trail of sets and single rows
 * mixed (sets older and newer than rows, sets sharing their time with rows and with each other, ids out of time
 * order), and the statements are shown to expand only the sets the read needs.
 */

let t: TestApp;
/** The product's app, counting its reads of the trail. */
let app: FastifyInstance;
/** The same declarations read through the view (no source builders): the engine's answers before. */
let viewApp: FastifyInstance;
let admin: string;
let viewAdmin: string;
let merchantId: number;
let otherMerchantId: number;
/** The trail statements the product's app ran while `capturing`. */
let captured: { sql: string; params: unknown[] }[] = [];
let capturing = false;

function capture(db: Db): Db {
  const wrap =
    (q: Queryable): Queryable['query'] =>
    (sql, params, options) => {
      if (capturing && /audit_(log|rows|sets)/.test(sql)) captured.push({ sql, params: params ?? [] });
      return q.query(sql, params, options);
    };
  return {
    kind: db.kind,
    query: wrap(db),
    transaction: (fn) => db.transaction((tx) => fn({ query: wrap(tx) })),
    listen: (channel, handler) => db.listen(channel, handler),
    notify: (channel, payload, via) => db.notify(channel, payload, via),
    onListenerState: (handler) => db.onListenerState(handler),
    close: () => db.close(),
  };
}

const who = (merchant: number): EnginePrincipal => ({
  userId: 0,
  name: 'Trail fixture',
  loginType: 'agency',
  role: 'admin',
  merchantId: merchant,
  clientId: null,
});

/** A set of `n` entries at `at`, written by the product's own statement (each entry's id from the trail's sequence). */
async function writeSet(
  db: Queryable,
  merchant: number,
  at: string,
  n: number,
  e: { resource: string; event: 'create' | 'action'; distinct: boolean },
) {
  const p = new Params();
  const first = 900_000 + Math.floor(Math.random() * 1_000_000);
  await db.query(
    insertAuditSetSql(
      who(merchant),
      p.bind,
      {
        resource: e.resource,
        subjectResource: 'trail_parents',
        event: e.event,
        action: e.event === 'action' ? 'verify' : null,
      },
      {
        from: `(select array(select ${p.bind(first)}::int + i from generate_series(0, ${n - 1}) as i) as record_ids,
                       array(select (${p.bind(first)}::int + i) / 7 from generate_series(0, ${n - 1}) as i) as subject_ids) as s`,
        // A create's changes are each record's own; a transition's mostly one, here two.
        changes: e.distinct
          ? `array(select jsonb_build_object('title', jsonb_build_object('from', null, 'to', 'Line ' || i)) from generate_series(1, ${n}) as i)`
          : `array['{"status":{"from":"pending","to":"verified"}}'::jsonb, '{"status":{"from":"disputed","to":"verified"}}'::jsonb]`,
        which: e.distinct
          ? `array(select generate_series(1, ${n}))`
          : `array(select 1 + (i % 3 = 0)::int from generate_series(1, ${n}) as i)`,
        input: `${p.bind(JSON.stringify({ reason: 'Fixture' }))}::jsonb`,
        at: `${p.bind(at)}::timestamptz`,
      },
    ),
    p.values,
  );
}

/** A single-record row at `at`, as a single write leaves it. */
async function writeRow(db: Queryable, merchant: number, at: string, recordId: number, event = 'update') {
  const p = new Params();
  await db.query(
    insertAuditSql(
      who(merchant),
      p.bind,
      { resource: 'trail_items', subjectResource: 'trail_items', event: event as 'update' },
      {
        from: '(select 1) as one',
        recordId: `${p.bind(recordId)}::int`,
        subjectId: `${p.bind(recordId)}::int`,
        changes: `${p.bind(JSON.stringify({ note: { from: null, to: `Note ${recordId}` } }))}::jsonb`,
        input: 'null::jsonb',
        at: `${p.bind(at)}::timestamptz`,
      },
    ),
    p.values,
  );
}

/** A time `minutes` after a fixed instant newer than the demo's trail (the newest entries are the fixture's). */
const at = (minutes: number) => new Date(Date.UTC(2031, 0, 1) + minutes * 60_000).toISOString();
/** A time as long before the demo's trail (the oldest entries are the fixture's too). */
const long = (minutes: number) => new Date(Date.UTC(2001, 0, 1) + minutes * 60_000).toISOString();

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  [{ merchant_id: merchantId }] = await t.db.query<{ merchant_id: number }>(
    `select merchant_id from users where email = 'admin@demo.test'`,
  );
  [{ merchant_id: otherMerchantId }] = await t.db.query<{ merchant_id: number }>(
    `select merchant_id from users where email = 'admin@other.test'`,
  );
  // Written out of time order, so ids and times disagree; ties of time between rows and sets, and between sets.
  await t.db.transaction(async (tx) => {
    await writeSet(tx, merchantId, at(30), 40, { resource: 'trail_lines', event: 'create', distinct: true });
    await writeRow(tx, merchantId, at(30), 1);
    await writeSet(tx, merchantId, at(50), 60, { resource: 'trail_lines', event: 'action', distinct: false });
    await writeRow(tx, merchantId, at(10), 2);
    await writeSet(tx, merchantId, at(10), 25, { resource: 'trail_other', event: 'action', distinct: false });
    await writeSet(tx, merchantId, at(30), 35, { resource: 'trail_other', event: 'create', distinct: true });
    for (let i = 0; i < 30; i++) await writeRow(tx, merchantId, at(i * 2), 100 + i, i % 4 ? 'update' : 'create');
    await writeSet(tx, merchantId, at(60), 3, { resource: 'trail_lines', event: 'action', distinct: false });
    await writeRow(tx, merchantId, at(60), 3);
    // Older than every demo entry: the last pages of the trail, and an export's end.
    for (let i = 0; i < 8; i++)
      await writeSet(tx, merchantId, long(i * 3), 30 + i, {
        resource: i % 2 ? 'trail_lines' : 'trail_other',
        event: i % 2 ? 'action' : 'create',
        distinct: i % 2 === 0,
      });
    for (let i = 0; i < 10; i++) await writeRow(tx, merchantId, long(i * 3), 200 + i);
    // Another agency's, at the same times: never in this agency's answers.
    await writeSet(tx, otherMerchantId, at(40), 50, { resource: 'trail_lines', event: 'action', distinct: false });
    await writeRow(tx, otherMerchantId, at(40), 5);
  });
  app = await buildApp({
    db: capture(t.db),
    config: { tokenLifetimeSeconds: 3600 },
    throttle: new LoginThrottle(),
  });
  viewApp = await buildApp({
    db: t.db,
    config: { tokenLifetimeSeconds: 3600 },
    throttle: new LoginThrottle(),
    behaviours: { audit_entries: { computedFilters: auditEntriesBehaviour.computedFilters } },
  });
  await app.ready();
  await viewApp.ready();
  admin = await loginAs(app, 'admin');
  viewAdmin = await loginAs(viewApp, 'admin');
});
afterAll(async () => {
  await app?.close();
  await viewApp?.close();
  await t?.close();
});

/** The two apps' answers to one request: status and body, each. */
async function both(url: string) {
  const [mine, view] = await Promise.all([call(app, admin, 'GET', url), call(viewApp, viewAdmin, 'GET', url)]);
  return { mine, view };
}

async function sameList(url: string) {
  const { mine, view } = await both(url);
  expect(mine.statusCode, mine.body).toBe(200);
  expect(view.statusCode).toBe(200);
  expect(mine.json()).toEqual(view.json());
  expect(mine.body).toBe(view.body);
  return mine.json() as { data: Row[]; total_count: number };
}

describe('the audit trail read without a record or subject filter', () => {
  it('answers every page, sort and set-level filter as the view does: rows, order and count', async () => {
    const [{ sets, rows }] = await t.db.query<{ sets: number; rows: number }>(
      `select (select count(*) from audit_sets where merchant_id = $1)::int as sets,
              (select count(*) from audit_rows where merchant_id = $1)::int as rows`,
      [merchantId],
    );
    expect(sets).toBeGreaterThan(10);
    expect(rows).toBeGreaterThan(40);
    const first = await sameList('/api/audit_entries');
    expect(first.data).toHaveLength(25);
    // The newest page is the fixture's, sets and rows mixed.
    expect(new Set(first.data.map((r) => r.resource))).toEqual(new Set(['trail_items', 'trail_lines']));
    const [{ n }] = await t.db.query<{ n: number }>('select count(*)::int as n from audit_log where merchant_id = $1', [
      merchantId,
    ]);
    expect(first.total_count).toBe(n);
    const pages = Math.ceil(n / 100);
    for (const order of ['desc', 'asc'])
      for (const page of [1, 2, 3, pages - 1, pages, pages + 1])
        await sameList(`/api/audit_entries?sort=created_at&order=${order}&per_page=100&page=${page}`);
    for (const perPage of [1, 7, 26])
      for (const page of [1, 2, 5]) await sameList(`/api/audit_entries?per_page=${perPage}&page=${page}`);
    for (const filter of [
      'event=action',
      'event=create,update',
      'resource=trail_lines',
      'resource=trail_other&event=create',
      'subject_resource=trail_parents',
      `created_at_gte=${encodeURIComponent(at(10))}&created_at_lte=${encodeURIComponent(at(30))}`,
      'user_id=1',
    ]) {
      const answer = await sameList(`/api/audit_entries?${filter}&per_page=50`);
      await sameList(`/api/audit_entries?${filter}&per_page=50&page=2&order=asc&sort=created_at`);
      if (filter === 'resource=trail_lines') expect(answer.total_count).toBe(40 + 60 + 3 + 31 + 33 + 35 + 37);
    }
    // Reads the builders leave to the view answer as before too.
    await sameList('/api/audit_entries?sort=id&order=desc&per_page=30');
    await sameList('/api/audit_entries?resource=trail_lines&record_id=900001');
    await sameList(`/api/audit_entries?ids=${first.data.map((r) => r.id).join(',')}`);
  });

  it('shows each entry by id as the view does, sets and rows, and no other agency’s', async () => {
    // The fixture's single-record rows, and each set's first, second, middle and last entries; both agencies'.
    const ids = await t.db.query<{ id: number; merchant_id: number }>(
      `select id, merchant_id from audit_rows where resource like 'trail_%'
       union all
       select x.id, s.merchant_id from audit_sets s
              cross join lateral unnest(array[s.ids[1], s.ids[2], s.ids[cardinality(s.ids) / 2], s.ids[cardinality(s.ids)]]) as x(id)
        where s.resource like 'trail_%'
       order by id`,
    );
    expect(ids.length).toBe(44 + 14 * 4);
    // And ids no entry has.
    const [{ max }] = await t.db.query<{ max: number }>('select max(id)::int as max from audit_log');
    for (const id of [...ids.map((r) => Number(r.id)), max + 1, 2 ** 31 - 1]) {
      const { mine, view } = await both(`/api/audit_entries/${id}`);
      expect(mine.statusCode, `entry ${id}`).toBe(view.statusCode);
      expect(mine.body, `entry ${id}`).toBe(view.body);
    }
    const theirs = ids.find((r) => Number(r.merchant_id) === otherMerchantId)!;
    expect((await call(app, admin, 'GET', `/api/audit_entries/${theirs.id}`)).statusCode).toBe(404);
  });

  it('exports the whole trail as the view does, page after page', async () => {
    for (const query of ['', '&order=asc&sort=created_at', '&event=action', '&resource=trail_other']) {
      const { mine, view } = await both(`/api/audit_entries/export?format=csv${query}`);
      expect(mine.statusCode).toBe(200);
      expect(mine.body).toBe(view.body);
      const [{ n }] = await t.db.query<{ n: number }>(
        'select count(*)::int as n from audit_log where merchant_id = $1',
        [merchantId],
      );
      if (query === '') {
        expect(n).toBeGreaterThan(EXPORT_PAGE);
        expect(mine.body.trim().split('\n').length).toBe(n + 1);
      }
    }
  });

  it('pages an export after each page’s last entry as the view does, whatever the page size', async () => {
    const read = async (on: FastifyInstance, query: Record<string, string>, size: number) => {
      const ctx = await systemContext(on, t.db, merchantId);
      const out: Row[] = [];
      for await (const rows of listRowPages(ctx, on.engine.get('audit_entries')!, query, size)) out.push(...rows);
      return out;
    };
    // Small pages end inside sets, between sets of one time and between a set and a row of the same time.
    const queries: [number, Record<string, string>][] = [
      [7, { created_at_gte: '2030-01-01' }],
      [7, { created_at_lte: '2002-01-01', order: 'asc', sort: 'created_at' }],
      [7, { resource: 'trail_lines' }],
      [60, {}],
      [60, { order: 'asc', sort: 'created_at' }],
    ];
    for (const [size, query] of queries) {
      const mine = await read(app, query, size);
      expect(mine).toEqual(await read(viewApp, query, size));
      expect(new Set(mine.map((r) => r.id)).size).toBe(mine.length);
    }
  });
});

/** The rows every unnest in a statement's plan gave, run once with its parameters (EXPLAIN ANALYZE). */
async function unnested(statement: { sql: string; params: unknown[] }): Promise<number> {
  const [row] = await t.db.query(`explain (analyze, format json) ${statement.sql}`, statement.params);
  const plan = Object.values(row)[0];
  const walk = (node: Row): number =>
    (node['Node Type'] === 'Function Scan' ? node['Actual Rows'] * node['Actual Loops'] : 0) +
    ((node.Plans as Row[] | undefined) ?? []).reduce((sum, child) => sum + walk(child), 0);
  return walk((typeof plan === 'string' ? JSON.parse(plan) : plan)[0].Plan);
}

describe('what the unfiltered reads expand', () => {
  it('the page expands only the newest sets it shows, the count and a show by id none or one', async () => {
    const [{ entries }] = await t.db.query<{ entries: number }>(
      'select coalesce(sum(cardinality(ids)), 0)::int as entries from audit_sets where merchant_id = $1',
      [merchantId],
    );
    captured = [];
    capturing = true;
    // A filter no other read asked (its count is not yet known).
    const page = (await call(app, admin, 'GET', '/api/audit_entries?per_page=10&created_at_gte=2000-01-01')).json();
    capturing = false;
    const [list, count] = captured;
    expect(list.sql).toMatch(/^select .* from \(select \* from \(/s);
    // The page's sets (times ≥ its oldest entry's): their entries and their changes once each; and the next set
    // (the page's end is known on reading its first entry).
    const [{ needed }] = await t.db.query<{ needed: number }>(
      `select coalesce(sum(cardinality(ids)) + sum(cardinality(changes)), 0)::int
              + (select cardinality(ids) from audit_sets where merchant_id = $1 and created_at < $2 order by created_at desc limit 1) as needed
         from audit_sets where merchant_id = $1 and created_at >= $2`,
      [merchantId, page.data.at(-1).created_at],
    );
    expect(needed).toBeLessThan(entries / 4);
    expect(await unnested(list)).toBeLessThanOrEqual(needed);
    expect(count.sql).toMatch(/count/);
    expect(await unnested(count)).toBe(0);
    // The entry in the middle of a set: that set alone is expanded.
    const [entry] = await t.db.query<{ id: number; n: number }>(
      `select ids[10] as id, cardinality(ids) as n from audit_sets where merchant_id = $1 and resource = 'trail_lines' order by id limit 1`,
      [merchantId],
    );
    captured = [];
    capturing = true;
    expect((await call(app, admin, 'GET', `/api/audit_entries/${entry.id}`)).statusCode).toBe(200);
    capturing = false;
    expect(captured).toHaveLength(1);
    expect(await unnested(captured[0])).toBeLessThanOrEqual(entry.n);
  });
});
