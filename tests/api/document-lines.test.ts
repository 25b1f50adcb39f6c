import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { LoginThrottle } from '../../server/auth/throttle';
import { createTableSql } from '../../server/engine/ddl';
import type { ResourceDeclaration } from '../../core/engine/types';
import type { ResourceBehaviour, EngineContext } from '../../server/engine/context';
import { declarations } from '../../core/resources/declarations';
import { systemContext } from '../../server/engine/routes';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';

// Issue 31.3: documents with lines, declared. A test-only document (an order) and its lines: the lines are locked
// with the order (changed only while it is a draft, ticked while it is not locked), the order's totals are rollups of
// its lines, and its state is derived from them by one pure rule (sent becomes done once every line is ticked).

/** The rule, as a domain module would declare it: pure, of the order about to be stored and its lines' states. */
function orderFromLines(order: Record<string, any>, lines: Record<string, any>[], now: string) {
  if (!['sent', 'done'].includes(order.status)) return undefined;
  const done = lines.length > 0 && lines.every((l) => l.status === 'ticked');
  const state = done ? 'done' : 'sent';
  if (state === order.status) return undefined;
  return { status: state, done_at: done ? now : null };
}

const ORDER_STATES = ['draft', 'sent', 'done', 'locked'];
const orders: ResourceDeclaration = {
  name: 'orders',
  table: 'orders',
  label: { one: 'Order', many: 'Orders' },
  recordRepresentation: '%{title}',
  defaultSort: { field: 'title', order: 'ASC' },
  delete: 'hard',
  access: { admin: ['list', 'show', 'create', 'edit', 'delete'] },
  lifecycle: {
    field: 'status',
    final: ['locked'],
    transitions: [
      { action: 'send', from: ['draft'], to: 'sent' },
      { action: 'reopen', from: ['sent', 'done'], to: 'draft' },
      { action: 'lock', from: ['sent', 'done'], to: 'locked' },
      // An effect that writes a line of a locked order through ctx.engine.update (refused: the lock holds for hooks).
      { action: 'restate', from: ORDER_STATES },
    ],
  },
  actions: ['send', 'reopen', 'lock', 'restate'].map((name) => ({
    name,
    label: name,
    roles: ['admin'],
    success: 'Done',
  })),
  fields: [
    { source: 'title', type: 'text', label: 'Title', required: true, maxLength: 50 },
    {
      source: 'status',
      type: 'choice',
      label: 'Status',
      defaultValue: 'draft',
      choices: ORDER_STATES.map((id) => ({ id, name: id === 'sent' ? 'Sent' : id[0].toUpperCase() + id.slice(1) })),
    },
    { source: 'line_count', type: 'number', integer: true, label: 'Lines', readOnly: true, defaultValue: 0 },
    { source: 'ticked_lines', type: 'number', integer: true, label: 'Ticked', readOnly: true, defaultValue: 0 },
    { source: 'total', type: 'money', label: 'Total', readOnly: true, defaultValue: 0 },
    { source: 'done_at', type: 'datetime', label: 'Done', readOnly: true },
  ],
};

const orderLines: ResourceDeclaration = {
  name: 'order_lines',
  table: 'order_lines',
  label: { one: 'Order line', many: 'Order lines' },
  recordRepresentation: '%{note}',
  defaultSort: { field: 'note', order: 'ASC' },
  delete: 'hard',
  access: { admin: ['list', 'show', 'create', 'edit', 'delete'] },
  parent: {
    resource: 'orders',
    field: 'order_id',
    onDelete: 'hide',
    lines: {
      editableIn: ['draft'],
      actionsIn: { tick: ['draft', 'sent', 'done'], untick: ['draft', 'sent', 'done'] },
      rollups: {
        line_count: { count: 'all' },
        ticked_lines: { count: { status: ['ticked'] } },
        total: { sum: 'amount' },
      },
      derive: { rule: orderFromLines, reads: ['status'] },
    },
  },
  lifecycle: {
    field: 'status',
    transitions: [
      { action: 'tick', from: ['open'], to: 'ticked' },
      { action: 'untick', from: ['ticked'], to: 'open' },
    ],
  },
  actions: ['tick', 'untick'].map((name) => ({ name, label: name, roles: ['admin'], bulk: true, success: 'Done' })),
  fields: [
    { source: 'order_id', type: 'reference', reference: 'orders', label: 'Order', required: true, createOnly: true },
    { source: 'note', type: 'text', label: 'Note', required: true, maxLength: 50 },
    { source: 'amount', type: 'money', label: 'Amount', required: true },
    {
      source: 'status',
      type: 'choice',
      label: 'Status',
      defaultValue: 'open',
      choices: [
        { id: 'open', name: 'Open' },
        { id: 'ticked', name: 'Ticked' },
      ],
    },
  ],
};

const behaviours: Record<string, ResourceBehaviour> = {
  orders: {
    actions: {
      async restate(ctx, r) {
        const [line] = await ctx.db.query('select id from order_lines where order_id = $1 order by id limit 1', [r.id]);
        if (line) await ctx.engine.update('order_lines', line.id, { note: 'restated' }, { reason: 'A hook' });
      },
    },
  },
};

let t: TestApp;
let app: FastifyInstance;
let admin: string;
let merchantId: number;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  for (const decl of [orders, orderLines])
    for (const statement of createTableSql(decl).split(/;\n/)) await t.db.query(statement);
  app = await buildApp({
    db: t.db,
    config: { tokenLifetimeSeconds: 3600 },
    throttle: new LoginThrottle(),
    declarations: [...declarations, orders, orderLines],
    behaviours,
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
  t.db.transaction(async (tx) => fn(await systemContext(app, tx, merchantId)));
const newOrder = async (title: string) => {
  const res = await call(app, admin, 'POST', '/api/orders', { title });
  expect(res.statusCode, res.body).toBe(201);
  return Number(res.json().data.id);
};
const addLine = (order: number, amount: number, note = 'line') =>
  call(app, admin, 'POST', '/api/order_lines', { order_id: order, amount, note });
const orderAct = (id: number, name: string) => call(app, admin, 'POST', `/api/orders/${id}/actions/${name}`);
const lineAct = (id: number, name: string) => call(app, admin, 'POST', `/api/order_lines/${id}/actions/${name}`);
const orderRow = async (id: number) =>
  (
    await t.db.query(
      'select status, line_count, ticked_lines, total::int as total, done_at, version from orders where id = $1',
      [id],
    )
  )[0];
/** The order's totals counted again from its lines, and the state its lines put it in. */
const recount = async (id: number) =>
  (
    await t.db.query(
      `select count(*)::int as line_count, (count(*) filter (where status = 'ticked'))::int as ticked_lines,
              coalesce(sum(amount), 0)::int as total from order_lines where order_id = $1`,
      [id],
    )
  )[0];

describe('a document with lines', () => {
  it('keeps its rollups equal to a recount after every write to its lines (random sequences)', async () => {
    // Each run: an order, then random creates, updates, deletes, ticks and unticks of its lines (by a request or by
    // the server's own ctx.engine), and sends and reopens of the order. After every step the rollups equal a recount,
    // a locked line was refused in words, and the state is what its lines make it.
    const step = fc.oneof(
      fc.record({
        kind: fc.constant('create' as const),
        amount: fc.integer({ min: 0, max: 50_000 }),
        engine: fc.boolean(),
      }),
      fc.record({
        kind: fc.constant('update' as const),
        pick: fc.nat(),
        amount: fc.integer({ min: 0, max: 9999 }),
        engine: fc.boolean(),
      }),
      fc.record({ kind: fc.constant('delete' as const), pick: fc.nat(), engine: fc.boolean() }),
      fc.record({ kind: fc.constantFrom('tick' as const, 'untick' as const), pick: fc.nat(), engine: fc.boolean() }),
      fc.record({ kind: fc.constantFrom('send' as const, 'reopen' as const), engine: fc.constant(false) }),
      // Set-based (issue 31.4): every line's amount at once (ctx.engine.updateMany), or a bulk tick or untick of
      // every line it applies to (the bulk route, or ctx.engine.act with their ids).
      fc.record({ kind: fc.constant('updateMany' as const), amount: fc.integer({ min: 0, max: 9999 }) }),
      fc.record({ kind: fc.constantFrom('tickMany' as const, 'untickMany' as const), engine: fc.boolean() }),
      fc.record({
        kind: fc.constant('createMany' as const),
        amounts: fc.array(fc.integer({ min: 0, max: 999 }), { minLength: 1, maxLength: 4 }),
      }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const id = await newOrder(`property ${run++}`);
        for (const s of steps) {
          const before = await orderRow(id);
          const lines = await t.db.query<{ id: number; status: string }>(
            'select id, status from order_lines where order_id = $1 order by id',
            [id],
          );
          const pick = 'pick' in s && lines.length ? lines[s.pick % lines.length] : undefined;
          const editable = before.status === 'draft';
          let status = 200;
          const viaEngine = async (fn: (ctx: EngineContext) => Promise<unknown>) =>
            asSystem(fn).then(
              () => 200,
              (e: { status?: number }) => e.status ?? 500,
            );
          if (s.kind === 'create')
            status = s.engine
              ? await viaEngine((ctx) =>
                  ctx.engine.create('order_lines', { order_id: id, amount: s.amount, note: 'n' }),
                )
              : (await addLine(id, s.amount)).statusCode;
          else if (s.kind === 'createMany')
            status = await viaEngine((ctx) =>
              ctx.engine.createMany(
                'order_lines',
                s.amounts.map((amount) => ({ order_id: id, amount, note: 'many' })),
              ),
            );
          else if (s.kind === 'send' || s.kind === 'reopen') status = (await orderAct(id, s.kind)).statusCode;
          else if (s.kind === 'updateMany') {
            if (lines.length === 0) continue;
            status = await viaEngine((ctx) =>
              ctx.engine.updateMany(
                'order_lines',
                lines.map((l) => ({ id: l.id, amount: s.amount })),
              ),
            );
          } else if (s.kind === 'tickMany' || s.kind === 'untickMany') {
            const action = s.kind === 'tickMany' ? 'tick' : 'untick';
            const ids = lines.filter((l) => l.status === (action === 'tick' ? 'open' : 'ticked')).map((l) => l.id);
            if (ids.length < 2) continue;
            status = s.engine
              ? await viaEngine((ctx) => ctx.engine.act('order_lines', ids, action))
              : (await call(app, admin, 'POST', `/api/order_lines/actions/${action}`, { ids })).statusCode;
          } else if (!pick) continue;
          else if (s.kind === 'update')
            status = s.engine
              ? await viaEngine((ctx) => ctx.engine.update('order_lines', pick.id, { amount: s.amount }))
              : (await call(app, admin, 'PUT', `/api/order_lines/${pick.id}`, { amount: s.amount })).statusCode;
          else if (s.kind === 'delete')
            status = s.engine
              ? await viaEngine((ctx) => ctx.engine.remove('order_lines', pick.id))
              : (await call(app, admin, 'DELETE', `/api/order_lines/${pick.id}`)).statusCode;
          else
            status = s.engine
              ? await viaEngine((ctx) => ctx.engine.act('order_lines', pick.id, s.kind))
              : (await lineAct(pick.id, s.kind)).statusCode;
          // What the lock allows: lines change only in a draft; ticks in any state but locked; a tick of a line
          // already in that state, or a transition from the wrong state, is the lifecycle's 409.
          if (['create', 'createMany', 'update', 'updateMany', 'delete'].includes(s.kind))
            expect(status < 300 ? 'written' : status, s.kind).toBe(editable ? 'written' : 409);
          expect(status).not.toBe(500);
          const after = await orderRow(id);
          const counted = await recount(id);
          expect({ line_count: after.line_count, ticked_lines: after.ticked_lines, total: after.total }).toEqual(
            counted,
          );
          const derived =
            after.status === 'draft'
              ? 'draft'
              : counted.line_count > 0 && counted.ticked_lines === counted.line_count
                ? 'done'
                : 'sent';
          expect(after.status).toBe(derived);
          expect(after.done_at === null).toBe(after.status !== 'done');
        }
      }),
      { numRuns: 12, seed: 31_3 },
    );
  });

  it('follows set-based writes of its lines, once per write (issue 31.4)', async () => {
    const id = await newOrder('set-based');
    const lines: number[] = [];
    for (const amount of [100, 200, 300]) lines.push(Number((await addLine(id, amount)).json().data.id));
    const v0 = (await orderRow(id)).version;
    await asSystem((ctx) =>
      ctx.engine.updateMany(
        'order_lines',
        lines.map((line) => ({ id: line, amount: 50 })),
      ),
    );
    expect(await orderRow(id)).toMatchObject({ line_count: 3, total: 150, version: v0 + 1 });
    expect((await orderAct(id, 'send')).statusCode).toBe(200);
    const bulk = await call(app, admin, 'POST', '/api/order_lines/actions/tick', { ids: lines });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(await orderRow(id)).toMatchObject({ status: 'done', ticked_lines: 3, version: v0 + 3 });
    await asSystem((ctx) => ctx.engine.act('order_lines', lines.slice(1), 'untick'));
    expect(await orderRow(id)).toMatchObject({ status: 'sent', ticked_lines: 1, done_at: null, version: v0 + 4 });
    expect(await recount(id)).toEqual({ line_count: 3, ticked_lines: 1, total: 150 });
  });

  it('versions and audits each change of the document the lines make, naming the rule', async () => {
    const id = await newOrder('audited');
    const v0 = (await orderRow(id)).version;
    const line = (await addLine(id, 1250)).json().data;
    expect(await orderRow(id)).toMatchObject({ line_count: 1, total: 1250, version: v0 + 1 });
    expect((await orderAct(id, 'send')).statusCode).toBe(200);
    // The order's own transition, then its lines' tick: done by the rule, in one write each.
    expect((await lineAct(line.id, 'tick')).statusCode).toBe(200);
    expect(await orderRow(id)).toMatchObject({ status: 'done', ticked_lines: 1, version: v0 + 3 });
    const entries = await t.db.query(
      `select event, action, changes, input from audit_log where resource = 'orders' and record_id = $1 order by id`,
      [id],
    );
    expect(entries.map((e) => e.event)).toEqual(['create', 'update', 'action', 'update']);
    expect(entries[1].changes).toEqual({
      line_count: { from: 0, to: 1 },
      total: { from: 0, to: 1250 },
    });
    expect(entries[3].changes).toMatchObject({
      status: { from: 'sent', to: 'done' },
      ticked_lines: { from: 0, to: 1 },
    });
    expect(entries[3].input).toEqual({ reason: 'Its order lines changed', rule: 'orderFromLines' });
  });

  it('refuses a line of a locked document, in words, for every writer', async () => {
    const id = await newOrder('to lock');
    const [first, second] = [(await addLine(id, 100, 'a')).json().data, (await addLine(id, 200, 'b')).json().data];
    expect((await orderAct(id, 'send')).statusCode).toBe(200);
    expect((await orderAct(id, 'lock')).statusCode).toBe(200);
    const changes = 'The order is locked: its order lines can be changed only while it is draft.';
    const expectRefused = (res: { statusCode: number; json(): { message: string } }, words = changes) => {
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(words);
    };
    // The requests: an edit, a delete, a new line, an action of the line.
    expectRefused(await call(app, admin, 'PUT', `/api/order_lines/${first.id}`, { amount: 1 }));
    expectRefused(await call(app, admin, 'DELETE', `/api/order_lines/${first.id}`));
    expectRefused(await addLine(id, 5));
    expectRefused(
      await lineAct(first.id, 'tick'),
      'The order is locked: tick runs only while it is draft, sent or done.',
    );
    // A bulk action names the line.
    const bulk = await call(app, admin, 'POST', '/api/order_lines/actions/tick', { ids: [first.id, second.id] });
    expect(bulk.statusCode).toBe(409);
    expect(bulk.json().message).toBe('a: The order is locked: tick runs only while it is draft, sent or done.');
    // The server's own writes: ctx.engine.update in a hook (the order's restate), and directly; createMany; remove.
    const hook = await orderAct(id, 'restate');
    expectRefused(hook);
    for (const write of [
      (ctx: EngineContext) => ctx.engine.update('order_lines', first.id, { note: 'x' }),
      (ctx: EngineContext) => ctx.engine.asSystem().remove('order_lines', first.id, { reason: 'tidy' }),
      (ctx: EngineContext) => ctx.engine.act('order_lines', first.id, 'tick'),
    ]) {
      const e = await asSystem(write).catch((x: { status?: number; message: string }) => x);
      expect(e).toMatchObject({ status: 409, message: expect.stringContaining('The order is locked:') });
    }
    const many = await asSystem((ctx) =>
      ctx.engine.createMany('order_lines', [
        { order_id: id, amount: 1, note: 'late' },
        { order_id: id, amount: 2, note: 'later' },
      ]),
    ).catch((x: { status?: number; message: string; errors: Record<string, string> }) => x);
    expect(many).toMatchObject({ status: 409, errors: { 'rows[0]': changes } });
    // Nothing changed: the lines and the totals are as locked.
    expect(await orderRow(id)).toMatchObject({ status: 'locked', line_count: 2, total: 300 });
    expect(
      (
        await t.db.query('select note, amount::int as amount from order_lines where order_id = $1 order by id', [id])
      ).map((r) => [r.note, r.amount]),
    ).toEqual([
      ['a', 100],
      ['b', 200],
    ]);
  });

  it('refuses a delete cascade through a locked document, and hides a draft’s lines with it', async () => {
    const id = await newOrder('cascade');
    await addLine(id, 10);
    await addLine(id, 20);
    const gone = await call(app, admin, 'DELETE', `/api/orders/${id}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await t.db.query('select id from order_lines where order_id = $1', [id])).toEqual([]);
    const locked = await newOrder('locked cascade');
    await addLine(locked, 10);
    await orderAct(locked, 'send');
    await orderAct(locked, 'lock');
    const refused = await call(app, admin, 'DELETE', `/api/orders/${locked}`);
    expect(refused.statusCode).toBe(409);
  });
});
