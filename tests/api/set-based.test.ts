import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { LoginThrottle } from '../../server/auth/throttle';
import { createTableSql } from '../../server/engine/ddl';
import type { Db, Queryable } from '../../server/db';
import type { ResourceDeclaration } from '../../core/engine/types';
import type { EngineContext, ResourceBehaviour } from '../../server/engine/context';
import { declarations } from '../../core/resources/declarations';
import { systemContext } from '../../server/engine/routes';
import { Params, queryMany, writeColumns } from '../../server/engine/compile';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';

// Issue 31.4: set-based transitions and updates. A test-only resource with a lifecycle (drafted, verified, then
// invoiced and locked, numbered at the invoice), a field editable only while drafted, a per-record effect, a set-form
// effect, a per-record beforeSave and a set-form afterUpdateMany. A run over many records checks every record in one
// pass and writes them in one UPDATE and one audit statement: one record refused refuses them all, naming it.
const items: ResourceDeclaration = {
  name: 'set_items',
  table: 'set_items',
  label: { one: 'Set item', many: 'Set items' },
  recordRepresentation: '%{title}',
  defaultSort: { field: 'title', order: 'ASC' },
  delete: 'hard',
  access: { admin: ['list', 'show', 'create', 'edit'] },
  numbering: { field: 'number', series: 'SI', prefix: 'SI-', pad: 5, at: 'invoice' },
  lifecycle: {
    field: 'status',
    final: ['invoiced'],
    transitions: [
      { action: 'verify', from: ['draft'], to: 'verified' },
      { action: 'invoice', from: ['verified'], to: 'invoiced' },
    ],
  },
  actions: [
    { name: 'verify', label: 'Verify', roles: ['admin'], success: 'Verified', bulk: true },
    { name: 'invoice', label: 'Invoice', roles: ['admin'], success: 'Invoiced', bulk: true },
  ],
  fields: [
    { source: 'number', type: 'text', label: 'Number', readOnly: true },
    { source: 'title', type: 'text', label: 'Title', required: true, maxLength: 50 },
    { source: 'amount', type: 'money', label: 'Amount' },
    { source: 'note', type: 'text', label: 'Note', editableIn: ['draft'] },
    { source: 'due_on', type: 'date', label: 'Due on' },
    { source: 'checked_at', type: 'datetime', label: 'Checked at' },
    { source: 'verified_by', type: 'text', label: 'Verified by', readOnly: true },
    { source: 'invoiced_total', type: 'money', label: 'Invoiced with', readOnly: true },
    {
      source: 'status',
      type: 'choice',
      label: 'Status',
      defaultValue: 'draft',
      choices: [
        { id: 'draft', name: 'Draft' },
        { id: 'verified', name: 'Verified' },
        { id: 'invoiced', name: 'Invoiced' },
      ],
    },
  ],
};

/** What the hooks saw: each record's effect and beforeSave, and each set's afterUpdateMany. */
const seen = { effects: 0, setEffects: [] as number[], afterSets: [] as number[], afterSaves: 0 };
const behaviour: ResourceBehaviour = {
  actions: {
    async verify(ctx) {
      seen.effects++;
      return { verified_by: ctx.principal.name };
    },
  },
  actionsMany: {
    // The set form: every record's total of the run, known only with all of them.
    async invoice(_ctx, records) {
      seen.setEffects.push(records.length);
      const total = records.reduce((sum, r) => sum + Number(r.amount ?? 0), 0);
      return records.map(() => ({ invoiced_total: total }));
    },
  },
  async beforeSave(_ctx, { action, record }) {
    if (action === 'verify' && record.title === 'refuse') return { title: { message: 'Refused by the hook.' } };
  },
  async afterSave() {
    seen.afterSaves++;
  },
  async afterUpdateMany(_ctx, events) {
    seen.afterSets.push(events.length);
  },
};

let t: TestApp;
let app: FastifyInstance;
let admin: string;
let merchantId: number;
let db: Db;
/** Statements the app ran on the records and their trail while `counting` (in a transaction or not). */
// The same without hooks: a transition numbers each record with nothing but the number and the state to write.
const plainItems: ResourceDeclaration = {
  name: 'plain_items',
  table: 'plain_items',
  label: { one: 'Plain item', many: 'Plain items' },
  recordRepresentation: '%{title}',
  defaultSort: { field: 'title', order: 'ASC' },
  delete: 'hard',
  access: { admin: ['list', 'show', 'create'] },
  numbering: { field: 'number', series: 'PI', prefix: 'PI-', pad: 4, at: 'issue' },
  lifecycle: { field: 'status', final: ['issued'], transitions: [{ action: 'issue', from: ['draft'], to: 'issued' }] },
  actions: [{ name: 'issue', label: 'Issue', roles: ['admin'], bulk: true, success: 'Issued' }],
  fields: [
    { source: 'number', type: 'text', label: 'Number', readOnly: true },
    { source: 'title', type: 'text', label: 'Title', required: true },
    {
      source: 'status',
      type: 'choice',
      label: 'Status',
      defaultValue: 'draft',
      choices: [
        { id: 'draft', name: 'Draft' },
        { id: 'issued', name: 'Issued' },
      ],
    },
  ],
};

let statements = 0;
let counting = false;

/** The test database, counting what the app asks of it. */
function counted(db: Db): Db {
  const count =
    (q: Queryable): Queryable['query'] =>
    (sql, params, options) => {
      if (counting && /set_items|audit_log/.test(sql)) statements++;
      return q.query(sql, params, options);
    };
  return {
    kind: db.kind,
    query: count(db),
    // Many rows answered as the database's own transaction answers them (PGlite: as one JSON text, queryMany).
    manyRowsAsJson: db.manyRowsAsJson,
    transaction: (fn) => db.transaction((tx) => fn({ query: count(tx), manyRowsAsJson: tx.manyRowsAsJson })),
    listen: (channel, handler) => db.listen(channel, handler),
    notify: (channel, payload, via) => db.notify(channel, payload, via),
    onListenerState: (handler) => db.onListenerState(handler),
    close: () => db.close(),
  };
}

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  for (const d of [items, plainItems])
    for (const statement of createTableSql(d).split(/;\n/)) await t.db.query(statement);
  db = counted(t.db);
  app = await buildApp({
    db,
    config: { tokenLifetimeSeconds: 3600 },
    throttle: new LoginThrottle(),
    declarations: [...declarations, items, plainItems],
    behaviours: { set_items: behaviour },
  });
  await app.ready();
  admin = await loginAs(app, 'admin');
  [{ merchant_id: merchantId }] = await t.db.query<{ merchant_id: number }>(
    `select merchant_id from users where email = 'admin@demo.test'`,
  );
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

const asSystem = <T>(fn: (ctx: EngineContext) => Promise<T>) =>
  db.transaction(async (tx) => fn(await systemContext(app, tx, merchantId)));
/** What a write can answer: the rows, or the refusal it threw. */
const attempt = <T>(fn: (ctx: EngineContext) => Promise<T>) =>
  asSystem(fn).then(
    (rows) => ({ rows, error: undefined }),
    (error: { status?: number; message: string; errors?: Record<string, string> }) => ({ rows: undefined, error }),
  );
const make = async (n: number, prefix: string) =>
  (
    await asSystem((ctx) =>
      ctx.engine.createMany(
        'set_items',
        Array.from({ length: n }, (_, i) => ({ title: `${prefix} ${i + 1}`, amount: 100 + i })),
      ),
    )
  ).map((r) => Number(r.id));
const states = async (ids: number[]) =>
  t.db.query<{ id: number; status: string; version: number; number: string | null; note: string | null }>(
    'select id, status, version, number, note from set_items where id = any($1::int[]) order by id',
    [ids],
  );
const entries = async (ids: number[]) =>
  t.db.query<{ record_id: number; event: string; action: string | null; changes: any; input: any }>(
    `select record_id, event, action, changes, input from audit_log where resource = 'set_items' and record_id = any($1::int[]) and event <> 'create' order by id`,
    [ids],
  );

describe('a set-based transition', () => {
  it('over 5,000 records with one in the wrong state refuses them all, names it, and writes nothing', async () => {
    const ids = await make(5000, 'Big');
    const odd = ids[4321];
    await asSystem((ctx) => ctx.engine.act('set_items', odd, 'verify'));
    seen.effects = 0;
    const before = await entries(ids);
    const { error } = await attempt((ctx) => ctx.engine.act('set_items', ids, 'verify'));
    expect(error?.status).toBe(409);
    expect(error?.message).toBe(
      '1 of the 5,000 selected set items cannot be changed, so nothing was changed. Big 4322: This set item is verified: Verify is only for a draft set item.',
    );
    expect(error?.errors).toEqual({ [odd]: 'This set item is verified: Verify is only for a draft set item.' });
    // Refused before any effect ran, and nothing written.
    expect(seen.effects).toBe(0);
    expect((await states(ids)).filter((r) => r.status !== 'draft').map((r) => r.id)).toEqual([odd]);
    expect(await entries(ids)).toEqual(before);
  });

  it('writes one version and one audit entry per record, in one UPDATE and one audit statement', async () => {
    const ids = await make(300, 'Fine');
    seen.afterSets = [];
    seen.afterSaves = 0;
    seen.effects = 0;
    counting = true;
    statements = 0;
    const rows = await asSystem((ctx) => ctx.engine.act('set_items', ids, 'verify', {}, { reason: 'Checked' }));
    counting = false;
    expect(rows.map((r) => [Number(r.id), r.status, r.verified_by])).toEqual(
      ids.map((id) => [id, 'verified', 'system']),
    );
    // The per-record effect ran for each; the set's afterUpdateMany once with all of them, no afterSave.
    expect(seen.effects).toBe(300);
    expect(seen.afterSets).toEqual([300]);
    expect(seen.afterSaves).toBe(0);
    expect((await states(ids)).map((r) => [r.status, r.version])).toEqual(ids.map(() => ['verified', 2]));
    const written = await entries(ids);
    expect(written).toHaveLength(300);
    expect(written[0]).toEqual({
      record_id: ids[0],
      event: 'action',
      action: 'verify',
      changes: { status: { from: 'draft', to: 'verified' }, verified_by: { from: null, to: 'system' } },
      input: { reason: 'Checked' },
    });
    expect(new Set(written.map((e) => e.record_id))).toEqual(new Set(ids));
    // The lock, the update and the audit, whatever the count: 300 records one at a time were over 600.
    expect(statements).toBe(3);
  });

  it('runs the set-form effect once, takes the numbers in order, and answers each record', async () => {
    const ids = await make(3, 'Bill');
    await asSystem((ctx) => ctx.engine.act('set_items', ids, 'verify'));
    seen.setEffects = [];
    const rows = await asSystem((ctx) => ctx.engine.act('set_items', ids, 'invoice'));
    expect(seen.setEffects).toEqual([3]);
    expect(rows.map((r) => [r.status, r.number, Number(r.invoiced_total)])).toEqual([
      ['invoiced', 'SI-00001', 303],
      ['invoiced', 'SI-00002', 303],
      ['invoiced', 'SI-00003', 303],
    ]);
  });

  it('numbers the records of a resource without hooks, in order, as it writes their state', async () => {
    const ids = (
      await asSystem((ctx) =>
        ctx.engine.createMany(
          'plain_items',
          ['A', 'B', 'C'].map((title) => ({ title })),
        ),
      )
    ).map((r) => Number(r.id));
    const answered = await asSystem((ctx) => ctx.engine.act('plain_items', ids, 'issue'));
    const stored = await t.db.query<{ id: number; number: string; status: string }>(
      'select id, number, status from plain_items where id = any($1::int[]) order by id',
      [ids],
    );
    expect(stored.map((r) => [r.number, r.status])).toEqual([
      ['PI-0001', 'issued'],
      ['PI-0002', 'issued'],
      ['PI-0003', 'issued'],
    ]);
    expect(answered.map((r) => r.number)).toEqual(['PI-0001', 'PI-0002', 'PI-0003']);
  });

  it('refuses the set when a record’s beforeSave refuses it, naming that record (422), and writes nothing', async () => {
    const ids = await make(4, 'Hooked');
    await asSystem((ctx) => ctx.engine.update('set_items', ids[2], { title: 'refuse' }));
    const { error } = await attempt((ctx) => ctx.engine.act('set_items', ids, 'verify'));
    expect(error?.status).toBe(422);
    expect(error?.message).toBe(
      '1 of the 4 selected set items cannot be changed, so nothing was changed. refuse: Title: Refused by the hook.',
    );
    expect((await states(ids)).map((r) => r.status)).toEqual(['draft', 'draft', 'draft', 'draft']);
  });
});

describe('a record’s history after a set-based transition', () => {
  it('shows the entry a transition of that record alone shows: who, the action, from → to, why', async () => {
    const ids = await make(3, 'History');
    await asSystem((ctx) => ctx.engine.act('set_items', ids[0], 'verify', {}, { reason: 'Checked' }));
    await asSystem((ctx) => ctx.engine.act('set_items', [ids[1], ids[2]], 'verify', {}, { reason: 'Checked' }));
    const history = async (id: number) => {
      const res = await call(app, admin, 'GET', `/api/audit_entries?resource=set_items&record_id=${id}`);
      expect(res.statusCode, res.body).toBe(200);
      // Each entry but its own id, record and time.
      return (res.json().data as Record<string, unknown>[])
        .filter((e) => e.event !== 'create')
        .map(({ id: _id, record_id, subject_id, created_at, updated_at, ...e }) => {
          expect([record_id, subject_id]).toEqual([id, id]);
          expect(created_at).toEqual(expect.any(String));
          return e;
        });
    };
    const alone = await history(ids[0]);
    expect(alone).toEqual([
      expect.objectContaining({
        event: 'action',
        action: 'verify',
        user_name: 'system',
        changes: { status: { from: 'draft', to: 'verified' }, verified_by: { from: null, to: 'system' } },
        input: { reason: 'Checked' },
      }),
    ]);
    expect(await history(ids[1])).toEqual(alone);
    expect(await history(ids[2])).toEqual(alone);
    expect((await states(ids)).map((r) => r.version)).toEqual([2, 2, 2]);
  });
});

describe('many rows as one JSON text (queryMany, PGlite’s way)', () => {
  it('answers every resource’s rows value for value as the driver does', async () => {
    await asSystem(async (ctx) => {
      const plain = { query: ctx.db.query.bind(ctx.db) };
      let compared = 0;
      for (const d of [...declarations, items]) {
        const c = ctx.engine.compiled(d.name);
        const p = new Params();
        const sql = `select ${writeColumns(c, p.bind, ctx.today)} from ${c.table} order by id`;
        const columns = c.computedState ? [...c.storedColumns, c.computedState] : c.storedColumns;
        const asJson = await queryMany({ ...plain, manyRowsAsJson: true }, c, columns, sql, p.values);
        expect(asJson, d.name).toEqual(await queryMany(plain, c, columns, sql, p.values));
        compared += asJson.length;
      }
      // The demo's records: times, decimals, money, dates, lists and JSON among them.
      expect(compared).toBeGreaterThan(500);
    });
  });
});

describe('a set-based update (ctx.engine.updateMany)', () => {
  it('answers each record as stored: the version and time it was given, the values as they read again', async () => {
    const ids = await make(3, 'Answered');
    await asSystem((ctx) => ctx.engine.act('set_items', ids[2], 'verify'));
    // Text, money and a state as sent, an empty note; the new version and time are not read back from the UPDATE.
    const rows = await asSystem((ctx) =>
      ctx.engine.updateMany('set_items', [
        { id: ids[0], note: 'first', amount: '250' },
        { id: ids[1], note: null, title: 'Answered again' },
        { id: ids[2], amount: 7 },
      ]),
    );
    await asSystem(async (ctx) => {
      const c = ctx.engine.compiled('set_items');
      const p = new Params();
      const sql = `select ${writeColumns(c, p.bind, ctx.today)} from ${c.table} where id = any(${p.bind(ids)}) order by id`;
      const stored = await queryMany(ctx.db, c, c.storedColumns, sql, p.values);
      expect(stored.map((r) => [r.version, r.amount, r.note, r.title])).toEqual([
        [2, 250, 'first', 'Answered 1'],
        [2, 100 + 1, null, 'Answered again'],
        [3, 7, null, 'Answered 3'],
      ]);
      expect(rows.map((r) => Object.fromEntries(c.storedColumns.map((col) => [col, r[col]])))).toEqual(stored);
    });
  });

  it('answers times and dates as they read again, whether sent as the drivers write them or in another form', async () => {
    const ids = await make(2, 'Timed');
    const reread = () =>
      asSystem(async (ctx) => {
        const c = ctx.engine.compiled('set_items');
        const p = new Params();
        const sql = `select ${writeColumns(c, p.bind, ctx.today)} from ${c.table} where id = any(${p.bind(ids)}) order by id`;
        return queryMany(ctx.db, c, c.storedColumns, sql, p.values);
      });
    // In UTC to the millisecond and yyyy-MM-dd, as a read answers them: not read back from the UPDATE.
    const asWritten = await asSystem((ctx) =>
      ctx.engine.updateMany('set_items', [
        { id: ids[0], checked_at: '2026-05-04T09:00:00.000Z', due_on: '2026-05-31' },
        { id: ids[1], checked_at: '2026-05-04T09:30:15.250Z', due_on: null },
      ]),
    );
    let stored = await reread();
    expect(stored.map((r) => [r.checked_at, r.due_on])).toEqual([
      ['2026-05-04T09:00:00.000Z', '2026-05-31'],
      ['2026-05-04T09:30:15.250Z', null],
    ]);
    expect(asWritten).toEqual(stored);
    // With an offset, without milliseconds: stored as the instant, answered as a read answers it.
    const otherForms = await asSystem((ctx) =>
      ctx.engine.updateMany('set_items', [
        { id: ids[0], checked_at: '2026-05-04T10:00:00+01:00' },
        { id: ids[1], checked_at: '2026-05-04T09:45:00Z' },
      ]),
    );
    stored = await reread();
    expect(stored.map((r) => r.checked_at)).toEqual(['2026-05-04T09:00:00.000Z', '2026-05-04T09:45:00.000Z']);
    expect(otherForms).toEqual(stored);
  });

  it('refuses locked records and fields not editable in a record’s state, naming each, and writes nothing', async () => {
    const ids = await make(4, 'Locked');
    await asSystem((ctx) => ctx.engine.act('set_items', [ids[0], ids[1], ids[2]], 'verify'));
    await asSystem((ctx) => ctx.engine.act('set_items', ids[0], 'invoice'));
    const before = await states(ids);
    const locked = await attempt((ctx) =>
      ctx.engine.updateMany('set_items', [
        { id: ids[3], amount: 5 },
        { id: ids[0], amount: 5 },
      ]),
    );
    expect(locked.error?.status).toBe(409);
    expect(locked.error?.message).toBe(
      '1 of the 2 selected set items cannot be changed, so nothing was changed. Locked 1: This set item is invoiced and locked: it can no longer be changed.',
    );
    const notNow = await attempt((ctx) =>
      ctx.engine.updateMany('set_items', [
        { id: ids[3], note: 'fine while drafted' },
        { id: ids[1], note: 'too late' },
        { id: ids[2], status: 'draft' },
      ]),
    );
    expect(notNow.error?.status).toBe(422);
    expect(notNow.error?.errors).toEqual({
      [ids[1]]: 'Note: Can be changed only while the set item is draft (it is verified)',
      [ids[2]]: expect.stringMatching(/^Status: /),
    });
    expect(await states(ids)).toEqual(before);
  });

  it('writes each record’s own changes with one version and entry each; a record left as it was is not written', async () => {
    const ids = await make(3, 'Edit');
    const rows = await asSystem((ctx) =>
      ctx.engine.updateMany(
        'set_items',
        [
          { id: ids[2], note: 'third' },
          { id: ids[0], note: 'first', amount: 7 },
          { id: ids[1], amount: 101 },
        ],
        { reason: 'Tidied' },
      ),
    );
    expect(rows.map((r) => [Number(r.id), r.note, Number(r.amount)])).toEqual([
      [ids[2], 'third', 102],
      [ids[0], 'first', 7],
      [ids[1], null, 101],
    ]);
    expect((await states(ids)).map((r) => r.version)).toEqual([2, 1, 2]);
    expect((await entries(ids)).map((e) => [e.record_id, e.event, e.changes, e.input])).toEqual([
      [ids[0], 'update', { note: { from: null, to: 'first' }, amount: { from: 100, to: 7 } }, { reason: 'Tidied' }],
      [ids[2], 'update', { note: { from: null, to: 'third' } }, { reason: 'Tidied' }],
    ]);
  });

  it('writes past the locks only with a reason, which each entry names', async () => {
    const ids = await make(2, 'Override');
    await asSystem((ctx) => ctx.engine.act('set_items', ids, 'verify'));
    await asSystem((ctx) => ctx.engine.act('set_items', ids, 'invoice'));
    await asSystem((ctx) =>
      ctx.engine.updateMany(
        'set_items',
        ids.map((id) => ({ id, amount: 1 })),
        { overrideLock: 'Correcting an import' },
      ),
    );
    expect((await entries(ids)).filter((e) => e.event === 'update').map((e) => e.input)).toEqual([
      { overrideLock: 'Correcting an import' },
      { overrideLock: 'Correcting an import' },
    ]);
  });
});

describe('a bulk action request', () => {
  it('runs in set form: the same number of statements for 20 records as for 200', async () => {
    const run = async (n: number) => {
      const ids = await make(n, `Bulk${n}`);
      counting = true;
      statements = 0;
      const res = await call(app, admin, 'POST', '/api/set_items/actions/verify', { ids });
      counting = false;
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.map((r: { id: number; status: string }) => [r.id, r.status])).toEqual(
        ids.map((id) => [id, 'verified']),
      );
      expect((await states(ids)).every((r) => r.status === 'verified' && r.version === 2)).toBe(true);
      expect(await entries(ids)).toHaveLength(n);
      return statements;
    };
    expect(await run(200)).toBe(await run(20));
  });

  it('names the records a hook refuses, and writes none of them', async () => {
    const ids = await make(3, 'Named');
    await asSystem((ctx) => ctx.engine.update('set_items', ids[1], { title: 'refuse' }));
    const res = await call(app, admin, 'POST', '/api/set_items/actions/verify', { ids });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(
      '1 of the 3 selected set items cannot be changed, so nothing was changed. refuse: Title: Refused by the hook.',
    );
    expect(res.json().errors).toEqual({ [ids[1]]: 'Title: Refused by the hook.' });
    expect((await states(ids)).map((r) => r.status)).toEqual(['draft', 'draft', 'draft']);
  });
});
