import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { LoginThrottle } from '../../server/auth/throttle';
import { createTableSql } from '../../server/engine/ddl';
import type { Db, Queryable } from '../../server/db';
import type { ResourceDeclaration } from '../../core/engine/types';
import type { EngineContext, ResourceBehaviour } from '../../server/engine/context';
import { declarations } from '../../core/resources/declarations';
import { systemContext } from '../../server/engine/routes';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';

// deleteMany (docs/decisions.md, "deleteMany: a set-based delete"): a test-only ledger whose entries are its lines
// (rolled up into it, changeable only while it is open), each entry with a lifecycle of its own (settled entries are
// final), and a per-record afterDelete hook. A delete of many entries checks them all in one pass and writes one
// DELETE and one row of the audit trail for the set; one refused refuses them all.
const ledgers: ResourceDeclaration = {
  name: 'dm_ledgers',
  table: 'dm_ledgers',
  label: { one: 'Ledger', many: 'Ledgers' },
  recordRepresentation: '%{title}',
  defaultSort: { field: 'title', order: 'ASC' },
  delete: 'hard',
  access: { admin: ['list', 'show', 'create', 'edit', 'delete'] },
  lifecycle: { field: 'status', transitions: [{ action: 'close', from: ['open'], to: 'closed' }] },
  actions: [{ name: 'close', label: 'Close', roles: ['admin'], success: 'Closed' }],
  fields: [
    { source: 'title', type: 'text', label: 'Title', required: true, maxLength: 50 },
    {
      source: 'status',
      type: 'choice',
      label: 'Status',
      defaultValue: 'open',
      choices: [
        { id: 'open', name: 'Open' },
        { id: 'closed', name: 'Closed' },
      ],
    },
    { source: 'entry_count', type: 'number', label: 'Entries', integer: true, readOnly: true },
    { source: 'total', type: 'money', label: 'Total', readOnly: true },
  ],
};
const entriesDecl: ResourceDeclaration = {
  name: 'dm_entries',
  table: 'dm_entries',
  label: { one: 'Ledger entry', many: 'Ledger entries' },
  recordRepresentation: '%{title}',
  defaultSort: { field: 'title', order: 'ASC' },
  delete: 'hard',
  parent: {
    resource: 'dm_ledgers',
    field: 'ledger_id',
    onDelete: 'refuse',
    lines: { editableIn: ['open'], rollups: { entry_count: { count: 'all' }, total: { sum: 'amount' } } },
  },
  access: { admin: ['list', 'show', 'create', 'edit', 'delete'] },
  lifecycle: {
    field: 'status',
    final: ['settled'],
    transitions: [{ action: 'settle', from: ['pending'], to: 'settled' }],
  },
  actions: [
    { name: 'settle', label: 'Settle', roles: ['admin'], success: 'Settled' },
    { name: 'remove', label: 'Remove', roles: ['admin'], bulk: true, deletes: true, success: 'Removed' },
  ],
  fields: [
    { source: 'ledger_id', type: 'reference', reference: 'dm_ledgers', label: 'Ledger', required: true },
    { source: 'title', type: 'text', label: 'Title', required: true, maxLength: 50 },
    { source: 'amount', type: 'money', label: 'Amount' },
    {
      source: 'status',
      type: 'choice',
      label: 'Status',
      defaultValue: 'pending',
      choices: [
        { id: 'pending', name: 'Pending' },
        { id: 'settled', name: 'Settled' },
      ],
    },
  ],
};

/** The records the afterDelete hook saw, in turn. */
let afterDeletes: number[] = [];
const entryBehaviour: ResourceBehaviour = {
  async afterDelete(_ctx, row) {
    afterDeletes.push(Number(row.id));
  },
};

let t: TestApp;
let app: FastifyInstance;
let admin: string;
let merchantId: number;
let otherMerchantId: number;
let db: Db;
/** Statements the app ran on the ledgers, their entries and the trail while `counting` (in a transaction or not). */
let statements = 0;
let counting = false;

function counted(db: Db): Db {
  const count =
    (q: Queryable): Queryable['query'] =>
    (sql, params, options) => {
      if (counting && /dm_ledgers|dm_entries|audit_/.test(sql)) statements++;
      return q.query(sql, params, options);
    };
  return {
    kind: db.kind,
    query: count(db),
    transaction: (fn) => db.transaction((tx) => fn({ query: count(tx) })),
    listen: (channel, handler) => db.listen(channel, handler),
    notify: (channel, payload, via) => db.notify(channel, payload, via),
    onListenerState: (handler) => db.onListenerState(handler),
    close: () => db.close(),
  };
}

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  for (const d of [ledgers, entriesDecl])
    for (const statement of createTableSql(d).split(/;\n/)) await t.db.query(statement);
  db = counted(t.db);
  app = await buildApp({
    db,
    config: { tokenLifetimeSeconds: 3600 },
    throttle: new LoginThrottle(),
    declarations: [...declarations, ledgers, entriesDecl],
    behaviours: { dm_entries: entryBehaviour },
  });
  await app.ready();
  admin = await loginAs(app, 'admin');
  [{ merchant_id: merchantId }] = await t.db.query<{ merchant_id: number }>(
    `select merchant_id from users where email = 'admin@demo.test'`,
  );
  [{ merchant_id: otherMerchantId }] = await t.db.query<{ merchant_id: number }>(
    `select merchant_id from users where email = 'admin@other.test'`,
  );
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

const as = <T>(merchant: number, fn: (ctx: EngineContext) => Promise<T>) =>
  db.transaction(async (tx) => fn(await systemContext(app, tx, merchant)));
const asSystem = <T>(fn: (ctx: EngineContext) => Promise<T>) => as(merchantId, fn);
const attempt = <T>(fn: (ctx: EngineContext) => Promise<T>) =>
  asSystem(fn).then(
    () => undefined,
    (error: { status?: number; message: string }) => error,
  );

/** A ledger with `n` entries of 100p, 101p, …; answers the ledger's id and the entries' ids. */
async function ledger(n: number, title: string, merchant = merchantId) {
  return as(merchant, async (ctx) => {
    const made = await ctx.engine.create('dm_ledgers', { title });
    const rows = await ctx.engine.createMany(
      'dm_entries',
      Array.from({ length: n }, (_, i) => ({ ledger_id: made.id, title: `${title} ${i + 1}`, amount: 100 + i })),
    );
    return { id: Number(made.id), entries: rows.map((r) => Number(r.id)) };
  });
}
const live = async (ids: number[]) =>
  (await t.db.query<{ id: number }>('select id from dm_entries where id = any($1::int[]) order by id', [ids])).map(
    (r) => Number(r.id),
  );
const ledgerOf = async (id: number) =>
  (
    await t.db.query<{ entry_count: number; total: number; version: number }>(
      'select entry_count, total::int as total, version from dm_ledgers where id = $1',
      [id],
    )
  )[0];
const deletions = (ids: number[]) =>
  t.db.query<{ id: number; record_id: number; subject_resource: string; subject_id: number; changes: any; input: any }>(
    `select id, record_id, subject_resource, subject_id, changes, input from audit_log
      where resource = 'dm_entries' and event = 'delete' and record_id = any($1::int[]) order by id`,
    [ids],
  );

describe('deleteMany', () => {
  it('deletes every record in one pass: one entry each in the trail (one row of it), the hook, the document once', async () => {
    const { id, entries } = await ledger(5, 'Many');
    const keep = entries[4];
    const gone = entries.slice(0, 4);
    const [{ sets: setsBefore }] = await t.db.query<{ sets: number }>('select count(*)::int as sets from audit_sets');
    afterDeletes = [];
    const rows = await asSystem((ctx) =>
      ctx.engine.deleteMany('dm_entries', [...gone].reverse(), { reason: 'Duplicates' }),
    );
    expect(rows.map((r) => Number(r.id))).toEqual(gone);
    expect(await live(entries)).toEqual([keep]);
    expect(afterDeletes).toEqual(gone);
    // The ledger follows its entries once: one new version, its rollups without the deleted entries.
    expect(await ledgerOf(id)).toEqual({ entry_count: 1, total: 104, version: 3 });
    // The trail shows one delete entry per record, filed under the ledger, each with what it held, read through the
    // view; the set is one row of audit_sets.
    const trail = await deletions(entries);
    expect(trail.map((e) => [e.record_id, e.subject_resource, e.subject_id])).toEqual(
      gone.map((g) => [g, 'dm_ledgers', id]),
    );
    expect(trail.map((e) => e.changes.amount)).toEqual([100, 101, 102, 103].map((a) => ({ from: a, to: null })));
    expect(trail.every((e) => e.input?.reason === 'Duplicates')).toBe(true);
    const [{ sets }] = await t.db.query<{ sets: number }>('select count(*)::int as sets from audit_sets');
    // The entries' set and the ledger's refresh.
    expect(sets - setsBefore).toBe(2);
    // The ledger's history (its subject filter) shows the deleted entries too.
    const history = await call(
      app,
      admin,
      'GET',
      `/api/audit_entries?subject_resource=dm_ledgers&subject_id=${id}&event=delete&per_page=100`,
    );
    expect(
      history
        .json()
        .data.map((e: { record_id: number }) => e.record_id)
        .sort(),
    ).toEqual(gone);
  });

  it('is refused whole while the document is closed: its lines cannot change', async () => {
    const { id, entries } = await ledger(3, 'Closed');
    await asSystem((ctx) => ctx.engine.act('dm_ledgers', id, 'close'));
    const error = await attempt((ctx) => ctx.engine.deleteMany('dm_entries', entries));
    expect(error?.status).toBe(409);
    expect(error?.message).toBe(
      'Closed 1: The ledger is closed: its ledger entries can be changed only while it is open.',
    );
    expect(await live(entries)).toEqual(entries);
    expect(await deletions(entries)).toEqual([]);
    // And through the bulk action's route, as a person would ask.
    const res = await call(app, admin, 'POST', '/api/dm_entries/actions/remove', { ids: entries });
    expect(res.statusCode).toBe(409);
    expect(await live(entries)).toEqual(entries);
  });

  it('is refused whole, naming them, when a record’s own state forbids its delete', async () => {
    const { entries } = await ledger(4, 'Settled');
    await asSystem((ctx) => ctx.engine.act('dm_entries', entries[2], 'settle'));
    const error = await attempt((ctx) => ctx.engine.deleteMany('dm_entries', entries));
    expect(error?.status).toBe(409);
    expect(error?.message).toMatch(
      /^1 of the 4 selected ledger entries cannot be deleted, so nothing was deleted\. Settled 3: /,
    );
    expect(await live(entries)).toEqual(entries);
  });

  it('finds the records in the caller’s agency only: another agency’s refuses them all (404)', async () => {
    const mine = await ledger(2, 'Mine');
    const theirs = await ledger(1, 'Theirs', otherMerchantId);
    const error = await attempt((ctx) => ctx.engine.deleteMany('dm_entries', [...mine.entries, ...theirs.entries]));
    expect(error?.status).toBe(404);
    expect(await live([...mine.entries, ...theirs.entries])).toEqual([...mine.entries, ...theirs.entries]);
  });

  it('runs the same number of statements for 200 records as for 20, and so does the bulk delete action', async () => {
    const run = async (n: number, via: 'engine' | 'route') => {
      const { entries } = await ledger(n, `Count${n}${via}`);
      counting = true;
      statements = 0;
      if (via === 'engine') await asSystem((ctx) => ctx.engine.deleteMany('dm_entries', entries));
      else {
        const res = await call(app, admin, 'POST', '/api/dm_entries/actions/remove', { ids: entries });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().data.map((r: { id: number }) => r.id)).toEqual(entries);
      }
      counting = false;
      expect(await live(entries)).toEqual([]);
      expect(await deletions(entries)).toHaveLength(n);
      return statements;
    };
    expect(await run(200, 'engine')).toBe(await run(20, 'engine'));
    expect(await run(200, 'route')).toBe(await run(20, 'route'));
  });
});
