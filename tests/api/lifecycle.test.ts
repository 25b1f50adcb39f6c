import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { LoginThrottle } from '../../server/auth/throttle';
import { createTableSql } from '../../server/engine/ddl';
import { compileAll } from '../../server/engine/routes';
import type { ResourceDeclaration } from '../../core/engine/types';
import { declarations } from '../../core/resources/declarations';
import { call, expectAudited, loginAs, makeTestApp, type TestApp } from './helpers';

// A declared lifecycle, on a test-only entity: an invoice-like voucher drafted, issued (locked), then credited.
const STATES = [
  { id: 'draft', name: 'Draft' },
  { id: 'issued', name: 'Issued' },
  { id: 'credited', name: 'Credited' },
  { id: 'void', name: 'Void' },
];
const vouchers: ResourceDeclaration = {
  name: 'vouchers',
  table: 'vouchers',
  label: { one: 'Voucher', many: 'Vouchers' },
  recordRepresentation: '%{title}',
  defaultSort: { field: 'title', order: 'ASC' },
  delete: 'hard',
  access: { admin: ['list', 'show', 'create', 'edit', 'delete'], consultant: ['list', 'show'] },
  lifecycle: {
    field: 'status',
    final: ['issued', 'credited'],
    transitions: [
      { action: 'issue', from: ['draft'], to: 'issued' },
      { action: 'credit', from: ['issued'], to: 'credited' },
      { action: 'cancel', from: ['draft'], to: 'void' },
    ],
  },
  actions: [
    { name: 'issue', label: 'Issue', roles: ['admin'], success: 'Issued' },
    { name: 'credit', label: 'Credit', roles: ['admin'], success: 'Credited' },
    { name: 'cancel', label: 'Void', roles: ['admin'], success: 'Voided' },
    // Not a transition: it runs in any state but a locked one.
    { name: 'flag', label: 'Flag', roles: ['admin'], success: 'Flagged', patch: () => ({ flagged: true }) },
  ],
  fields: [
    { source: 'title', type: 'text', label: 'Title', required: true, maxLength: 50, sortable: true },
    {
      source: 'status',
      type: 'choice',
      label: 'Status',
      choices: STATES,
      defaultValue: 'draft',
      required: true,
      filter: true,
    },
    { source: 'amount', type: 'money', label: 'Amount', min: 0, editableIn: ['draft'] },
    { source: 'flagged', type: 'boolean', label: 'Flagged', readOnly: true },
  ],
};

let t: TestApp;
let app: FastifyInstance;
let admin: string;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  for (const statement of createTableSql(vouchers).split(/;\n/)) await t.db.query(statement);
  app = await buildApp({
    db: t.db,
    config: { tokenLifetimeSeconds: 3600 },
    throttle: new LoginThrottle(),
    declarations: [...declarations, vouchers],
  });
  await app.ready();
  admin = await loginAs(app, 'admin');
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

const post = (url: string, body: unknown = {}) => call(app, admin, 'POST', url, body);
const put = (url: string, body: unknown) => call(app, admin, 'PUT', url, body);
const draft = async (title: string) => (await post('/api/vouchers', { title, amount: 1000 })).json().data;

describe('a declared lifecycle', () => {
  it('changes the state only through its transitions, each from its declared states, saying the current one', async () => {
    const v = await draft('First');
    expect(v.status).toBe('draft');
    const create = await post('/api/vouchers', { title: 'Sneaky', status: 'issued' });
    expect(create.statusCode).toBe(422);
    expect(create.json().errors).toEqual({ status: 'Changed only through its actions (the buttons on the record)' });
    const edit = await put(`/api/vouchers/${v.id}`, { status: 'issued' });
    expect(edit.statusCode).toBe(422);
    expect(Object.keys(edit.json().errors)).toEqual(['status']);

    const wrong = await post(`/api/vouchers/${v.id}/actions/credit`);
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().message).toBe('This voucher is draft: Credit is only for an issued voucher.');
    // The transition sets the state it declares, audited as the action.
    const { result } = await expectAudited(
      app,
      admin,
      {
        resource: 'vouchers',
        id: v.id,
        event: 'action',
        action: 'issue',
        changes: { status: { from: 'draft', to: 'issued' } },
      },
      () => post(`/api/vouchers/${v.id}/actions/issue`),
    );
    expect(result.json().data.status).toBe('issued');
  });

  it('keeps a field editable only in the states it declares, naming the field in words', async () => {
    const v = await draft('Editable');
    expect((await put(`/api/vouchers/${v.id}`, { amount: 1200 })).json().data.amount).toBe(1200);
    await post(`/api/vouchers/${v.id}/actions/cancel`);
    const late = await put(`/api/vouchers/${v.id}`, { amount: 1500 });
    expect(late.statusCode).toBe(422);
    expect(late.json().errors).toEqual({ amount: 'Can be changed only while the voucher is draft (it is void)' });
    // Its title has no such rule.
    expect((await put(`/api/vouchers/${v.id}`, { title: 'Renamed' })).statusCode).toBe(200);
  });

  it('locks a record in a final state: no edit, delete or other action; only the transitions declared from it', async () => {
    const v = await draft('Locked');
    expect((await post(`/api/vouchers/${v.id}/actions/flag`)).json().data.flagged).toBe(true);
    await post(`/api/vouchers/${v.id}/actions/issue`);
    const words = 'This voucher is issued and locked: it can no longer be changed. Only Credit can still be run.';
    for (const res of [
      await put(`/api/vouchers/${v.id}`, { title: 'Changed' }),
      await call(app, admin, 'DELETE', `/api/vouchers/${v.id}`),
      await post(`/api/vouchers/${v.id}/actions/flag`),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(words);
    }
    const [row] = await t.db.query('select title, status from vouchers where id = $1', [v.id]);
    expect(row).toEqual({ title: 'Locked', status: 'issued' });
    expect((await post(`/api/vouchers/${v.id}/actions/credit`)).json().data.status).toBe('credited');
    const after = await put(`/api/vouchers/${v.id}`, { title: 'Changed' });
    expect(after.statusCode).toBe(409);
    expect(after.json().message).toBe('This voucher is credited and locked: it can no longer be changed.');
  });

  it('is checked when compiled: an unknown state, or an action named like a CRUD permission, fails at start-up', () => {
    expect(() =>
      compileAll([
        {
          ...vouchers,
          lifecycle: { field: 'status', transitions: [{ action: 'issue', from: ['draft'], to: 'sent' }] },
        },
      ]),
    ).toThrow(/issue.to names unknown state 'sent'/);
    expect(() =>
      compileAll([
        {
          ...vouchers,
          actions: [...vouchers.actions!, { name: 'delete', label: 'Delete', roles: ['admin'], success: 'Deleted' }],
        },
      ]),
    ).toThrow(/may not be named 'delete'/);
    expect(() => compileAll([{ ...vouchers, lifecycle: { field: 'title', transitions: [] } }])).toThrow(
      /must be a choice field/,
    );
  });
});
