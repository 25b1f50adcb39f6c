import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { LoginThrottle } from '../../server/auth/throttle';
import { createTableSql } from '../../server/engine/ddl';
import type { ResourceDeclaration } from '../../core/engine/types';
import { declarations } from '../../core/resources/declarations';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { systemContext } from '../../server/engine/routes';
import type { EngineContext } from '../../server/engine/context';

// Issue 31.1: the lifecycle's locks hold in the engine's write path for every writer, not only at the request's
// edge. A test-only document (draft → issued → final, final locked; notes editable only in draft) and a tag it
// refers to (deleting a tag removes the reference): a service, a hook, a transition's effect, createMany and a delete
// cascade each meet the same refusal a request meets.
const STATES = [
  { id: 'draft', name: 'Draft' },
  { id: 'issued', name: 'Issued' },
  { id: 'final', name: 'Final' },
];
const tags: ResourceDeclaration = {
  name: 'lock_tags',
  table: 'lock_tags',
  label: { one: 'Tag', many: 'Tags' },
  recordRepresentation: '%{name}',
  defaultSort: { field: 'name', order: 'ASC' },
  delete: 'hard',
  access: { admin: ['list', 'show', 'create', 'edit', 'delete'] },
  fields: [{ source: 'name', type: 'text', label: 'Name', required: true, maxLength: 50 }],
};
const docs: ResourceDeclaration = {
  name: 'lock_docs',
  table: 'lock_docs',
  label: { one: 'Statement', many: 'Statements' },
  recordRepresentation: '%{title}',
  defaultSort: { field: 'title', order: 'ASC' },
  delete: 'hard',
  access: { admin: ['list', 'show', 'create', 'edit', 'delete'] },
  lifecycle: {
    field: 'status',
    final: ['final'],
    transitions: [
      { action: 'issue', from: ['draft'], to: 'issued' },
      { action: 'finalise', from: ['issued'], to: 'final' },
      // Its effect writes another statement (named by the input) through ctx.engine.update.
      { action: 'touch_other', from: ['draft'] },
    ],
  },
  actions: [
    { name: 'issue', label: 'Issue', roles: ['admin'], success: 'Issued' },
    { name: 'finalise', label: 'Finalise', roles: ['admin'], success: 'Finalised' },
    {
      name: 'touch_other',
      label: 'Touch another',
      roles: ['admin'],
      success: 'Touched',
      input: [{ source: 'other', type: 'number', label: 'Other', required: true }],
    },
  ],
  fields: [
    { source: 'title', type: 'text', label: 'Title', required: true, maxLength: 50 },
    { source: 'notes', type: 'text', label: 'Notes', maxLength: 50, editableIn: ['draft'] },
    { source: 'status', type: 'choice', label: 'Status', choices: STATES, defaultValue: 'draft' },
    { source: 'tag_id', type: 'reference', reference: 'lock_tags', label: 'Tag', onDelete: 'remove' },
  ],
};

let t: TestApp;
let app: FastifyInstance;
let admin: string;
let merchantId: number;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  for (const d of [tags, docs]) for (const statement of createTableSql(d).split(/;\n/)) await t.db.query(statement);
  app = await buildApp({
    db: t.db,
    config: { tokenLifetimeSeconds: 3600 },
    throttle: new LoginThrottle(),
    declarations: [...declarations, tags, docs],
    behaviours: {
      lock_docs: {
        actions: {
          async touch_other(ctx, _record, input) {
            await ctx.engine.update('lock_docs', Number(input.other), { title: 'Touched' });
          },
        },
      },
      lock_tags: {
        // A hook that renames every statement carrying the tag: refused for a locked one.
        async afterSave(ctx, { stored, row }) {
          if (!stored) return;
          const carrying = await ctx.db.query<{ id: number }>('select id from lock_docs where tag_id = $1', [row.id]);
          for (const d of carrying) await ctx.engine.update('lock_docs', d.id, { title: `Tagged ${row.name}` });
        },
      },
    },
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

const asService = <T>(fn: (ctx: EngineContext) => Promise<T>) =>
  t.db.transaction(async (tx) => fn(await systemContext(app, tx, merchantId)));
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('The write was accepted');
    },
    (e: { status?: number; message: string; errors?: unknown }) => ({
      status: e.status,
      message: e.message,
      errors: e.errors,
    }),
  );
const post = (url: string, body: unknown = {}) => call(app, admin, 'POST', url, body);

/** A statement taken to the given state through its transitions. */
async function statement(state: 'draft' | 'issued' | 'final', extra: Record<string, unknown> = {}) {
  const res = await post('/api/lock_docs', { title: `S ${state}`, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  const id: number = res.json().data.id;
  if (state !== 'draft') expect((await post(`/api/lock_docs/${id}/actions/issue`)).statusCode).toBe(200);
  if (state === 'final') expect((await post(`/api/lock_docs/${id}/actions/finalise`)).statusCode).toBe(200);
  return id;
}
const stored = async (id: number) => (await t.db.query('select * from lock_docs where id = $1', [id]))[0];
const LOCKED = 'This statement is final and locked: it can no longer be changed.';

describe('the lifecycle locks, for every writer', () => {
  it('refuse a service’s ctx.engine.update of a locked record, in words, and store nothing', async () => {
    const id = await statement('final');
    const before = await stored(id);
    expect(await refusal(asService((ctx) => ctx.engine.update('lock_docs', id, { title: 'Changed' })))).toMatchObject({
      status: 409,
      message: LOCKED,
    });
    // The product's own writes (a job) too.
    expect(
      await refusal(asService((ctx) => ctx.engine.asSystem().update('lock_docs', id, { title: 'Changed' }))),
    ).toMatchObject({ status: 409, message: LOCKED });
    expect(await stored(id)).toEqual(before);
  });

  it('refuse a hook’s write of a locked record: the request that ran the hook is refused, and rolls back', async () => {
    const tag = (await post('/api/lock_tags', { name: 'Blue' })).json().data.id;
    const id = await statement('final', { tag_id: tag });
    const res = await call(app, admin, 'PUT', `/api/lock_tags/${tag}`, { name: 'Green' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(LOCKED);
    expect((await t.db.query('select name from lock_tags where id = $1', [tag]))[0].name).toBe('Blue');
    expect((await stored(id)).title).toBe('S final');
  });

  it('refuse a transition’s effect writing a locked record, and a transition not declared from the final state', async () => {
    const locked = await statement('final');
    const runner = await statement('draft');
    const res = await post(`/api/lock_docs/${runner}/actions/touch_other`, { other: locked });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(LOCKED);
    expect((await stored(locked)).title).toBe('S final');
    const again = await post(`/api/lock_docs/${locked}/actions/issue`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This statement is final: Issue is only for a draft statement.');
    // Through ctx.engine.act as well.
    expect(await refusal(asService((ctx) => ctx.engine.act('lock_docs', locked, 'finalise')))).toMatchObject({
      status: 409,
      message: 'This statement is final: Finalise is only for an issued statement.',
    });
  });

  it('refuse the lifecycle field changed by a plain update, from a request and from server code', async () => {
    const id = await statement('draft');
    const put = await call(app, admin, 'PUT', `/api/lock_docs/${id}`, { title: 'S draft', status: 'final' });
    expect(put.statusCode).toBe(422);
    expect(put.json().errors).toEqual({ status: 'Changed only through its actions (the buttons on the record)' });
    expect(await refusal(asService((ctx) => ctx.engine.update('lock_docs', id, { status: 'final' })))).toMatchObject({
      status: 422,
      errors: { status: 'Changed only through its actions (the buttons on the record)' },
    });
    expect((await stored(id)).status).toBe('draft');
  });

  it('refuse a field not editable in the record’s state, from server code, saying when it is', async () => {
    const id = await statement('issued');
    expect(await refusal(asService((ctx) => ctx.engine.update('lock_docs', id, { notes: 'Late' })))).toMatchObject({
      status: 422,
      errors: { notes: 'Can be changed only while the statement is draft (it is issued)' },
    });
    // A field editable in every state still changes.
    expect((await asService((ctx) => ctx.engine.update('lock_docs', id, { title: 'Renamed' }))).title).toBe('Renamed');
  });

  it('refuse a createMany (and a create) of records that would start locked, naming the row', async () => {
    const e = await refusal(
      asService((ctx) =>
        ctx.engine.createMany('lock_docs', [{ title: 'Fine' }, { title: 'Born final', status: 'final' }]),
      ),
    );
    expect(e).toMatchObject({
      status: 422,
      errors: { 'rows[1].status': 'A new statement cannot start final: it becomes final only through its actions.' },
    });
    expect(
      await refusal(asService((ctx) => ctx.engine.create('lock_docs', { title: 'Born final', status: 'final' }))),
    ).toMatchObject({
      status: 409,
      message: 'A new statement cannot start final: it becomes final only through its actions.',
    });
    expect(
      (await t.db.query(`select count(*)::int as n from lock_docs where title in ('Fine', 'Born final')`))[0].n,
    ).toBe(0);
  });

  it('refuse a delete whose cascade would rewrite a locked record, naming it; remove it from an open one', async () => {
    const tag = (await post('/api/lock_tags', { name: 'Red' })).json().data.id;
    const open = await statement('draft', { tag_id: tag, title: 'Open one' });
    const locked = await statement('final', { tag_id: tag, title: 'Closed one' });
    const res = await call(app, admin, 'DELETE', `/api/lock_tags/${tag}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      `This tag cannot be deleted: statement Closed one refers to it and cannot change. ${LOCKED}`,
    );
    expect(await refusal(asService((ctx) => ctx.engine.remove('lock_tags', tag)))).toMatchObject({ status: 409 });
    expect((await stored(locked)).tag_id).toBe(tag);
    expect((await stored(open)).tag_id).toBe(tag);
    // A tag only open statements carry is deleted, and removed from them.
    const other = (await post('/api/lock_tags', { name: 'Amber' })).json().data.id;
    const carrier = await statement('draft', { tag_id: other, title: 'Carrier' });
    expect((await call(app, admin, 'DELETE', `/api/lock_tags/${other}`)).statusCode).toBe(200);
    expect((await stored(carrier)).tag_id).toBeNull();
  });

  it('let server code that must write past a lock say why, and the audit entry names it', async () => {
    const id = await statement('final');
    await asService((ctx) =>
      ctx.engine.update('lock_docs', id, { title: 'Corrected' }, { overrideLock: 'Court order 12/2026' }),
    );
    expect((await stored(id)).title).toBe('Corrected');
    const [entry] = await t.db.query(
      `select event, input from audit_log where resource = 'lock_docs' and record_id = $1 order by id desc limit 1`,
      [id],
    );
    expect(entry).toEqual({ event: 'update', input: { overrideLock: 'Court order 12/2026' } });
  });
});
