import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { LoginThrottle } from '../../server/auth/throttle';
import { createTableSql } from '../../server/engine/ddl';
import type { ResourceDeclaration } from '../../core/engine/types';
import type { ResourceBehaviour } from '../../server/engine/context';
import { declarations } from '../../core/resources/declarations';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { systemContext } from '../../server/engine/routes';
import type { EngineContext } from '../../server/engine/context';

// Issue 31.2: a number taken at a transition. A test-only document, drafted then issued: drafts have no number; the
// issue takes the next one of its series (bills and credit notes each their own) inside its own transaction; the
// database holds each number once; a numbered record is never deleted, by anyone.
const bills: ResourceDeclaration = {
  name: 'bills',
  table: 'bills',
  label: { one: 'Bill', many: 'Bills' },
  recordRepresentation: '%{title}',
  defaultSort: { field: 'title', order: 'ASC' },
  delete: 'hard',
  access: { admin: ['list', 'show', 'create', 'edit', 'delete'], consultant: ['list', 'show', 'create', 'delete'] },
  numbering: {
    field: 'number',
    series: 'BL',
    prefix: 'BL-',
    pad: 5,
    at: 'issue',
    seriesOf: (r) => (r.kind === 'credit' ? { series: 'BC', prefix: 'BC-' } : { series: 'BL', prefix: 'BL-' }),
  },
  lifecycle: { field: 'status', transitions: [{ action: 'issue', from: ['draft'], to: 'issued' }] },
  actions: [{ name: 'issue', label: 'Issue', roles: ['admin', 'consultant'], success: 'Issued', bulk: true }],
  fields: [
    { source: 'number', type: 'text', label: 'Number', readOnly: true, sortable: true },
    { source: 'title', type: 'text', label: 'Title', required: true, maxLength: 50 },
    {
      source: 'kind',
      type: 'choice',
      label: 'Kind',
      defaultValue: 'bill',
      choices: [
        { id: 'bill', name: 'Bill' },
        { id: 'credit', name: 'Credit note' },
      ],
    },
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

/** The numbers the hook saw at an issue: a refused issue has taken one before it was refused. */
const seen: string[] = [];
const behaviour: ResourceBehaviour = {
  async beforeSave(_ctx, { action, record }) {
    if (action !== 'issue') return;
    seen.push(String(record.number));
    if (record.title === 'refuse') return { title: { message: 'Refused by the hook.' } };
  },
};

let t: TestApp;
let app: FastifyInstance;
let second: FastifyInstance;
let admin: string;
let consultant: string;
let adminOnSecond: string;
let merchantId: number;

const build = async () => {
  const a = await buildApp({
    db: t.db,
    config: { tokenLifetimeSeconds: 3600 },
    throttle: new LoginThrottle(),
    declarations: [...declarations, bills],
    behaviours: { bills: behaviour },
  });
  await a.ready();
  return a;
};

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  for (const statement of createTableSql(bills).split(/;\n/)) await t.db.query(statement);
  // Two server instances on one database, as two processes would be.
  [app, second] = [await build(), await build()];
  [admin, consultant, adminOnSecond] = await Promise.all([
    loginAs(app, 'admin'),
    loginAs(app, 'consultant'),
    loginAs(second, 'admin'),
  ]);
  [{ merchant_id: merchantId }] = await t.db.query<{ merchant_id: number }>(
    `select merchant_id from users where email = 'admin@demo.test'`,
  );
});
afterAll(async () => {
  await app?.close();
  await second?.close();
  await t?.close();
});

const asSystem = <T>(fn: (ctx: EngineContext) => Promise<T>) =>
  t.db.transaction(async (tx) => fn(await systemContext(app, tx, merchantId)));
const draft = async (title: string, kind = 'bill') => {
  const res = await call(app, admin, 'POST', '/api/bills', { title, kind });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; number: string | null };
};
const issue = (id: number, on = app, token = admin) => call(on, token, 'POST', `/api/bills/${id}/actions/issue`);
const numberOf = (n: number, prefix = 'BL-') => `${prefix}${String(n).padStart(5, '0')}`;
const stored = async (id: number) => (await t.db.query('select number, status from bills where id = $1', [id]))[0];

describe('a number taken at a transition', () => {
  it('leaves drafts without a number; the issue takes the next of the record’s own series', async () => {
    const a = await draft('first');
    const b = await draft('second');
    const credit = await draft('credit', 'credit');
    expect([a.number, b.number, credit.number]).toEqual([null, null, null]);
    // Issued out of their drafting order: the numbers follow the issues.
    expect((await issue(b.id)).json().data.number).toBe(numberOf(1));
    expect((await issue(a.id)).json().data.number).toBe(numberOf(2));
    // A credit note in its own series, from its own first number.
    expect((await issue(credit.id)).json().data.number).toBe(numberOf(1, 'BC-'));
    const series = await t.db.query(
      `select series, prefix, next_number from number_series where merchant_id = $1 and series in ('BL', 'BC') order by series`,
      [merchantId],
    );
    expect(series).toEqual([
      { series: 'BC', prefix: 'BC-', next_number: 2 },
      { series: 'BL', prefix: 'BL-', next_number: 3 },
    ]);
  });

  it('takes none when the transition rolls back: the next issue takes the same number', async () => {
    const refused = await draft('refuse');
    const res = await issue(refused.id);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ title: 'Refused by the hook.' });
    const taken = seen.at(-1)!;
    expect(await stored(refused.id)).toEqual({ number: null, status: 'draft' });
    const next = await draft('after the refusal');
    expect((await issue(next.id)).json().data.number).toBe(taken);
  });

  it('gives 200 concurrent issues on two server instances 200 contiguous numbers', async () => {
    const drafts = await asSystem((ctx) =>
      ctx.engine.createMany(
        'bills',
        Array.from({ length: 200 }, (_, i) => ({ title: `many ${i}` })),
      ),
    );
    expect(drafts.every((d) => d.number === null)).toBe(true);
    const [{ next }] = await t.db.query<{ next: number }>(
      `select next_number as next from number_series where merchant_id = $1 and series = 'BL'`,
      [merchantId],
    );
    const answers = await Promise.all(
      drafts.map((d, i) => (i % 2 ? issue(Number(d.id), app, admin) : issue(Number(d.id), second, adminOnSecond))),
    );
    expect(answers.map((r) => r.statusCode).filter((s) => s !== 200)).toEqual([]);
    const numbers = answers.map((r) => r.json().data.number as string).sort();
    expect(numbers).toEqual(Array.from({ length: 200 }, (_, i) => numberOf(next + i)));
  });

  it('is held once per agency by the database: a duplicate number is refused there', async () => {
    const [{ number }] = await t.db.query<{ number: string }>(
      `select number from bills where merchant_id = $1 and number is not null limit 1`,
      [merchantId],
    );
    const err = await t.db
      .query(`insert into bills (merchant_id, title, kind, status, number) values ($1, 'copy', 'bill', 'issued', $2)`, [
        merchantId,
        number,
      ])
      .catch((e: { code?: string }) => e);
    expect((err as { code?: string }).code).toBe('23505');
  });

  it('is never deleted once numbered, by any principal, in words; a draft still is', async () => {
    const numbered = await draft('kept');
    const { number } = (await issue(numbered.id)).json().data;
    const words = `This bill is numbered ${number}: a numbered bill is never deleted, so that its series has no gaps.`;
    for (const token of [admin, consultant]) {
      const res = await call(app, token, 'DELETE', `/api/bills/${numbered.id}`);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(words);
    }
    for (const remove of [
      (ctx: EngineContext) => ctx.engine.remove('bills', numbered.id),
      (ctx: EngineContext) => ctx.engine.asSystem().remove('bills', numbered.id, { reason: 'Tidy up' }),
    ]) {
      const e = await asSystem(remove).catch((x: { status?: number; message: string }) => x);
      expect(e).toMatchObject({ status: 409, message: words });
    }
    expect(await stored(numbered.id)).toEqual({ number, status: 'issued' });
    const loose = await draft('loose');
    expect((await call(app, consultant, 'DELETE', `/api/bills/${loose.id}`)).statusCode).toBe(200);
  });
});
