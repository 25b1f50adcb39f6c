import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { LoginThrottle } from '../../server/auth/throttle';
import { createTableSql } from '../../server/engine/ddl';
import type { FieldDeclaration, ResourceDeclaration } from '../../core/engine/types';
import { declarations } from '../../core/resources/declarations';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';

// Deleting a record that others refer to (issue 30.3): every onDelete mode of both reference kinds, and of a parent,
// on entities declared for this file; then the three deletes of the demo that answered 500 (a single reference to
// clear: a shift template used by shifts, a site with a staff restriction, a client whose site has one).

const ALL = ['list', 'show', 'create', 'edit', 'delete'] as const;
const base = (name: string, mode: 'hard' | 'soft'): ResourceDeclaration => ({
  name,
  table: name,
  label: { one: name.slice(0, -1), many: name },
  recordRepresentation: '%{name}',
  defaultSort: { field: 'name', order: 'ASC' },
  delete: mode,
  access: { admin: [...ALL] },
  fields: [{ source: 'name', type: 'text', label: 'Name', required: true, sortable: true }],
});
/** Hard-deleted targets, and soft-deleted ones (a deleted row stays for history). */
const depots = base('depots', 'hard');
const yards = base('yards', 'soft');

/** One referring field per reference kind, target and onDelete mode (none: the default for the target). */
const cases: { source: string; kind: 'reference' | 'references'; target: 'depots' | 'yards'; mode?: string }[] = [];
for (const kind of ['reference', 'references'] as const)
  for (const target of ['depots', 'yards'] as const)
    for (const mode of ['refuse', 'remove', 'keep', undefined])
      // A hard delete cannot keep a single reference: the database's key refuses it (a 'keep' is for soft targets).
      if (!(kind === 'reference' && target === 'depots' && mode === 'keep'))
        cases.push({
          source: `${kind === 'reference' ? 'one' : 'many'}_${target}_${mode ?? 'default'}`,
          kind,
          target,
          mode,
        });

const vans: ResourceDeclaration = {
  ...base('vans', 'hard'),
  fields: [
    { source: 'name', type: 'text', label: 'Name', required: true, sortable: true },
    ...cases.map((c): FieldDeclaration => ({
      source: c.source,
      type: c.kind,
      reference: c.target,
      label: c.source,
      ...(c.mode ? { onDelete: c.mode as 'refuse' | 'remove' | 'keep' } : {}),
    })),
  ],
};
/** Children of a depot: hidden (here deleted) with it, or refusing its delete. */
const child = (name: string, onDelete: 'hide' | 'refuse'): ResourceDeclaration => ({
  ...base(name, 'hard'),
  parent: { resource: 'depots', field: 'depot_id', onDelete },
  fields: [
    { source: 'name', type: 'text', label: 'Name', required: true, sortable: true },
    { source: 'depot_id', type: 'reference', reference: 'depots', label: 'Depot', required: true },
    // A reference of the child itself, cleared when the child goes with its parent.
    { source: 'yard_id', type: 'reference', reference: 'yards', label: 'Yard', onDelete: 'remove' },
  ],
});
const bays = child('bays', 'hide');
const logs = child('logs', 'refuse');
const ours = [depots, yards, vans, bays, logs];

let t: TestApp;
let app: FastifyInstance;
let admin: string;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  for (const d of ours) for (const statement of createTableSql(d).split(/;\n/)) await t.db.query(statement);
  app = await buildApp({
    db: t.db,
    config: { tokenLifetimeSeconds: 3600 },
    throttle: new LoginThrottle({ namespace: 'delete-references:' }),
    declarations: [...declarations, ...ours],
  });
  await app.ready();
  admin = await loginAs(app, 'admin');
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

let n = 0;
async function create(resource: string, body: Record<string, unknown> = {}) {
  const res = await call(app, admin, 'POST', `/api/${resource}`, { name: `${resource} ${++n}`, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}
const stored = async (table: string, id: number) => (await t.db.query(`select * from ${table} where id = $1`, [id]))[0];

describe('deleting a record others refer to, for every onDelete mode and reference kind', () => {
  it.each(cases.map((c) => [c.source, c] as const))('%s', async (_name, c) => {
    const target = await create(c.target);
    const keeper = await create(c.target);
    const value = c.kind === 'reference' ? target.id : [keeper.id, target.id];
    const van = await create('vans', { [c.source]: value });
    const res = await call(app, admin, 'DELETE', `/api/${c.target}/${target.id}`);
    const mode = c.mode ?? (c.target === 'yards' ? 'keep' : 'refuse');
    const after = await stored('vans', van.id);
    if (mode === 'refuse') {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().message).toBe(`This ${c.target.slice(0, -1)} is in use by van. Remove it first.`);
      expect(after[c.source]).toEqual(value);
      expect(await stored(c.target, target.id)).toMatchObject({ id: target.id });
      return;
    }
    expect(res.statusCode, res.body).toBe(200);
    if (mode === 'keep') {
      expect(after).toMatchObject({ [c.source]: value, version: van.version });
      return;
    }
    // Removed: the reference cleared in the same write, the van's new version and its own audit entry.
    expect(after).toMatchObject({
      [c.source]: c.kind === 'reference' ? null : [keeper.id],
      version: van.version + 1,
    });
    const [entry] = await t.db.query(
      `select changes, input from audit_log where resource = 'vans' and record_id = $1 and event = 'update'`,
      [van.id],
    );
    expect(entry.changes).toEqual({ [c.source]: { from: value, to: c.kind === 'reference' ? null : [keeper.id] } });
    expect(entry.input.reason).toMatch(/was deleted$/);
  });

  it("a parent's children: refused while a refusing child exists; hidden with it, each clearing its own references", async () => {
    const depot = await create('depots');
    const yard = await create('yards');
    const log = await create('logs', { depot_id: depot.id });
    const refused = await call(app, admin, 'DELETE', `/api/depots/${depot.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This depot is in use by log. Remove it first.');
    expect((await call(app, admin, 'DELETE', `/api/logs/${log.id}`)).statusCode).toBe(200);

    const bay = await create('bays', { depot_id: depot.id, yard_id: yard.id });
    const res = await call(app, admin, 'DELETE', `/api/depots/${depot.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await stored('bays', bay.id)).toBeUndefined();
    expect(await stored('depots', depot.id)).toBeUndefined();
    // The yard's delete next finds nothing to clear; a yard of a live bay is cleared from it.
    const other = await create('bays', { depot_id: (await create('depots')).id, yard_id: yard.id });
    expect((await call(app, admin, 'DELETE', `/api/yards/${yard.id}`)).statusCode).toBe(200);
    expect(await stored('bays', other.id)).toMatchObject({ yard_id: null, version: other.version + 1 });
  });
});

describe('the deletes of the demo that answered 500', () => {
  it('a shift template used by shifts: deleted (hidden), and the shifts, closed ones locked, still name it', async () => {
    const [used] = await t.db.query<{ id: number; n: number }>(
      `select template_id as id, count(*)::int as n from shifts where template_id is not null group by template_id order by 2 desc limit 1`,
    );
    expect(used.n).toBeGreaterThan(0);
    const res = await call(app, admin, 'DELETE', `/api/shift_templates/${used.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const [{ n }] = await t.db.query<{ n: number }>('select count(*)::int as n from shifts where template_id = $1', [
      used.id,
    ]);
    expect(n).toBe(used.n);
    expect((await stored('shift_templates', used.id)).deleted_at).not.toBeNull();
    expect((await call(app, admin, 'GET', `/api/shift_templates/${used.id}`)).statusCode).toBe(404);
  });

  it('a site with a staff restriction, and a client whose site has one: deleted, the restriction kept without the site', async () => {
    const [client] = await t.db.query<{ id: number }>(
      `select c.id from clients c join users u on u.merchant_id = c.merchant_id where u.email = 'admin@demo.test' and c.deleted_at is null order by c.id limit 1`,
    );
    const [candidate] = await t.db.query<{ id: number }>(
      `select id from candidates where merchant_id = (select merchant_id from clients where id = $1) and deleted_at is null order by id limit 1`,
      [client.id],
    );
    const restrictionAt = async (clientId: number) => {
      const site = await create('sites', {
        client_id: clientId,
        address: { line1: '1 High St', city: 'Leeds', postcode: 'LS1 1AA' },
      });
      const r = await call(app, admin, 'POST', '/api/candidate_restrictions', {
        candidate_id: candidate.id,
        client_id: clientId,
        site_id: site.id,
        reason: 'Not to return to this site',
        restricted_on: '2026-01-05',
      });
      expect(r.statusCode, r.body).toBe(201);
      return { site, restriction: r.json().data };
    };

    const one = await restrictionAt(client.id);
    const res = await call(app, admin, 'DELETE', `/api/sites/${one.site.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await stored('candidate_restrictions', one.restriction.id)).toMatchObject({
      site_id: null,
      client_id: client.id,
    });

    const fresh = await create('clients', { billing_email: 'accounts@closing.example' });
    const two = await restrictionAt(fresh.id);
    const gone = await call(app, admin, 'DELETE', `/api/clients/${fresh.id}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect((await stored('sites', two.site.id)).deleted_at).not.toBeNull();
    expect(await stored('candidate_restrictions', two.restriction.id)).toMatchObject({ site_id: null });
  });
});
