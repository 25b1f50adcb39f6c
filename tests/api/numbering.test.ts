import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { LoginThrottle } from '../../server/auth/throttle';
import { createTableSql } from '../../server/engine/ddl';
import type { ResourceDeclaration } from '../../core/engine/types';
import { declarations } from '../../core/resources/declarations';
import { call, fixtureWrite, loginAs, makeTestApp, type TestApp } from './helpers';
import { systemContext } from '../../server/engine/routes';
import type { EngineContext } from '../../server/engine/context';

// Numbering series: a test-only entity numbered TK-00001, TK-00002… from the agency's gapless series (a series of its
// own: the demo's timesheets have taken TS's first numbers).
const tickets: ResourceDeclaration = {
  name: 'tickets',
  table: 'tickets',
  label: { one: 'Ticket', many: 'Tickets' },
  recordRepresentation: '%{number}',
  defaultSort: { field: 'number', order: 'ASC' },
  delete: 'hard',
  access: { admin: ['list', 'show', 'create', 'edit', 'delete'], consultant: ['list', 'show', 'create'] },
  numbering: { field: 'number', series: 'TK', prefix: 'TK-', pad: 5 },
  fields: [
    { source: 'number', type: 'text', label: 'Number', readOnly: true, sortable: true },
    { source: 'title', type: 'text', label: 'Title', required: true, maxLength: 50 },
  ],
};

/** The numbers the hook saw: a refused create has taken one before it was refused. */
const seen: string[] = [];

let t: TestApp;
let app: FastifyInstance;
let admin: string;
let consultant: string;
let other: string;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  for (const statement of createTableSql(tickets).split(/;\n/)) await t.db.query(statement);
  app = await buildApp({
    db: t.db,
    config: { tokenLifetimeSeconds: 3600 },
    throttle: new LoginThrottle(),
    declarations: [...declarations, tickets],
    behaviours: {
      tickets: {
        async beforeSave(_ctx, { stored, record }) {
          if (stored) return;
          seen.push(String(record.number));
          if (record.title === 'refuse') return { title: { message: 'Refused by the hook.' } };
        },
      },
    },
  });
  await app.ready();
  [admin, consultant, other] = await Promise.all([
    loginAs(app, 'admin'),
    loginAs(app, 'consultant'),
    loginAs(app, 'otherAdmin'),
  ]);
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

const create = (title: string, token = admin) => call(app, token, 'POST', '/api/tickets', { title });
const numberOf = (n: number) => `TK-${String(n).padStart(5, '0')}`;

describe('a numbering series', () => {
  it('numbers 200 concurrent creates contiguously and uniquely, and a refused create leaves no gap', async () => {
    const first = await create('first');
    expect(first.statusCode).toBe(201);
    expect(first.json().data.number).toBe(numberOf(1));
    // The hook refuses after the number was taken; the rollback gives it back to the next create.
    const refused = await create('refuse');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ title: 'Refused by the hook.' });
    expect(seen.at(-1)).toBe(numberOf(2));
    // A number sent by the caller is ignored (the field is the server's).
    const second = await call(app, admin, 'POST', '/api/tickets', { title: 'second', number: 'TK-99999' });
    expect(second.json().data.number).toBe(numberOf(2));

    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => create(`many ${i}`, i % 2 ? admin : consultant)),
    );
    expect(answers.map((r) => r.statusCode).filter((s) => s !== 201)).toEqual([]);
    const numbers = answers.map((r) => r.json().data.number as string).sort();
    expect(numbers).toEqual(Array.from({ length: 200 }, (_, i) => numberOf(i + 3)));
    const [{ n, distinct }] = await t.db.query<{ n: number; distinct: number }>(
      `select count(*)::int as n, count(distinct number)::int as distinct from tickets`,
    );
    expect({ n, distinct }).toEqual({ n: 202, distinct: 202 });
    // The other agency has its own series.
    expect((await create('theirs', other)).json().data.number).toBe(numberOf(1));
  });

  it('numbers a createMany as one contiguous run; a refused one gives its run back', async () => {
    const [{ merchant_id: merchantId }] = await t.db.query<{ merchant_id: number }>(
      `select merchant_id from users where email = 'admin@demo.test'`,
    );
    const asSystem = <T>(fn: (ctx: EngineContext) => Promise<T>) =>
      t.db.transaction(async (tx) => fn(await systemContext(app, tx, merchantId)));
    const next = async () => Number((await create('probe')).json().data.number.slice(3)) + 1;
    const start = await next();
    // The hook without a set form runs for each record, after the run's numbers were taken: one refusal refuses all.
    const refused = await asSystem((ctx) =>
      ctx.engine.createMany('tickets', [{ title: 'batch a' }, { title: 'refuse' }, { title: 'batch c' }]),
    ).catch((e) => e);
    expect(refused.errors).toEqual({ 'rows[1].title': 'Refused by the hook.' });
    const made = await asSystem((ctx) =>
      ctx.engine.createMany(
        'tickets',
        Array.from({ length: 50 }, (_, i) => ({ title: `batch ${i}` })),
      ),
    );
    expect(made.map((r) => r.number)).toEqual(Array.from({ length: 50 }, (_, i) => numberOf(start + i)));
    expect((await create('after the batch')).json().data.number).toBe(numberOf(start + 50));
  });

  it('lets an admin move the next number forward, never back, in words', async () => {
    const before = (await call(app, admin, 'GET', '/api/number_series'))
      .json()
      .data.find((s: { series: string }) => s.series === 'TK');
    const next = before.next_number as number;
    expect((await call(app, consultant, 'PUT', '/api/number_series/TK', { next_number: next + 100 })).statusCode).toBe(
      403,
    );
    const back = await call(app, admin, 'PUT', '/api/number_series/TK', { next_number: next - 1 });
    expect(back.statusCode).toBe(422);
    expect(back.json().errors.next_number).toBe(
      `The next number can only move forward: ${numberOf(next - 1)} has been given already; give ${next} or more.`,
    );
    expect((await call(app, admin, 'PUT', '/api/number_series/TK', { next_number: 1.5 })).statusCode).toBe(422);
    const moved = await call(app, admin, 'PUT', '/api/number_series/TK', { next_number: 5000 });
    expect(moved.json().data).toEqual({ series: 'TK', prefix: 'TK-', next_number: 5000 });
    expect((await create('after the move')).json().data.number).toBe(numberOf(5000));
    const [entry] = await t.db.query(
      `select changes from audit_log where resource = 'number_series' order by id desc limit 1`,
    );
    expect(entry.changes).toEqual({ 'TK.next_number': { from: next, to: 5000 } });
  });

  it('refuses a made-up series, a next number without room left, and a consultant before reading the body (issue 30.13)', async () => {
    const made = await call(app, admin, 'PUT', '/api/number_series/XYZ', { next_number: 10 });
    expect(made.statusCode).toBe(404);
    expect(made.json().message).toBe('There is no number series called XYZ.');
    expect((await t.db.query(`select 1 from number_series where series = 'XYZ'`)).length, 'nothing stored for it').toBe(
      0,
    );
    for (const next_number of [2147483647, 1_000_000_000]) {
      const res = await call(app, admin, 'PUT', '/api/number_series/TK', { next_number });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.next_number).toBe('Give the next number as a whole number from 1 to 999,999,999.');
    }
    // Who may is decided first: a consultant learns nothing of the body or the series from a 422.
    for (const [url, body] of [
      ['/api/number_series/TK', { next_number: 'lots', extra: 1 }],
      ['/api/number_series/not a series!', {}],
    ] as const)
      expect((await call(app, consultant, 'PUT', url, body)).statusCode, url).toBe(403);
    // The highest allowed still gives numbers afterwards.
    expect((await call(app, admin, 'PUT', '/api/number_series/TK', { next_number: 999_999_999 })).statusCode).toBe(200);
    expect((await create('at the top')).json().data.number).toBe('TK-999999999');
    expect((await create('and after')).json().data.number).toBe('TK-1000000000');
  });

  it('a series that reached the column limit refuses a create in words, and gives nothing (issue 30.13)', async () => {
    const [{ merchant_id }] = await t.db.query(`select merchant_id from users where email = 'admin@demo.test'`);
    await fixtureWrite(
      t.db,
      `update number_series set next_number = 2147483647 where merchant_id = $1 and series = 'TK'`,
      [merchant_id],
    );
    const res = await create('one too many');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('No more tickets can be numbered: the TK series has given its last number.');
    const [row] = await t.db.query(`select next_number from number_series where merchant_id = $1 and series = 'TK'`, [
      merchant_id,
    ]);
    expect(row.next_number).toBe(2147483647);
  });
});

describe("a client's code (issue 30.19)", () => {
  it('is the next of the CL series when left empty; a typed code is kept, and a number it holds is passed over', async () => {
    const [series] = await t.db.query<{ next_number: number }>(
      `select next_number from number_series where series = 'CL' and merchant_id = (select merchant_id from users where email = 'admin@demo.test')`,
    );
    const next = Number(series.next_number);
    const code = (n: number) => `CL${String(n).padStart(3, '0')}`;
    const make = (name: string, extra: Record<string, unknown> = {}) =>
      call(app, admin, 'POST', '/api/clients', { name, billing_email: 'accounts@example.test', ...extra });
    // The demo's clients hold the series' first codes; the first new client without one gets the next.
    const first = await make('Code Test One');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data.code).toBe(code(next));
    const blank = await make('Code Test Blank', { code: '' });
    expect(blank.json().data.code).toBe(code(next + 1));
    // A code typed by hand is the client's; one that takes the series' next number makes the series pass it over.
    const typed = await make('Code Test Typed', { code: code(next + 2) });
    expect(typed.json().data.code).toBe(code(next + 2));
    expect((await make('Code Test After')).json().data.code).toBe(code(next + 3));
    // A duplicate typed code is still refused in words.
    const twice = await make('Code Test Twice', { code: code(next).toLowerCase() });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().errors.code).toBeTruthy();
    // Another agency's series is its own.
    const theirs = await call(app, other, 'POST', '/api/clients', { name: 'Theirs', billing_email: 'a@example.test' });
    expect(theirs.json().data.code).toMatch(/^CL\d{3}$/);
  });
});
