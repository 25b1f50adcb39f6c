import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { LoginThrottle } from '../../server/auth/throttle';
import { createTableSql } from '../../server/engine/ddl';
import type { ResourceDeclaration } from '../../core/engine/types';
import { declarations } from '../../core/resources/declarations';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';

// An entity added by configuration alone: a declaration, and the table `npm run engine:sql` prints for it.
const vehicles: ResourceDeclaration = {
  name: 'vehicles',
  table: 'vehicles',
  label: { one: 'Vehicle', many: 'Vehicles' },
  recordRepresentation: '%{registration}',
  defaultSort: { field: 'registration', order: 'ASC' },
  search: ['registration', 'make'],
  delete: 'hard',
  access: { admin: ['list', 'show', 'create', 'edit', 'delete'], consultant: ['list', 'show'] },
  tabs: [{ id: 'vans', label: 'Vans', filter: { kind: 'van' } }],
  // A vehicle based at a client's site belongs to that client's business unit (a role limited to units).
  unitScope: 'site_id.client_id',
  fields: [
    {
      source: 'registration',
      type: 'text',
      label: 'Registration',
      required: true,
      unique: true,
      sortable: true,
      maxLength: 8,
    },
    { source: 'make', type: 'text', label: 'Make', sortable: true },
    {
      source: 'kind',
      type: 'choice',
      label: 'Kind',
      required: true,
      filter: true,
      choices: [
        { id: 'car', name: 'Car' },
        { id: 'van', name: 'Van' },
      ],
    },
    { source: 'seats', type: 'number', label: 'Seats', integer: true, min: 1, max: 9, sortable: true },
    { source: 'mot_due', type: 'date', label: 'MOT due', filter: true, sortable: true },
    { source: 'hire_rate', type: 'money', label: 'Hire rate', min: 0 },
    { source: 'pool_car', type: 'boolean', label: 'Pool car', filter: true },
    { source: 'site_id', type: 'reference', reference: 'sites', label: 'Based at' },
  ],
};

let t: TestApp;
let app: FastifyInstance;
let admin: string;
let other: string;
let consultant: string;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  for (const statement of createTableSql(vehicles).split(/;\n/)) await t.db.query(statement);
  app = await buildApp({
    db: t.db,
    config: { tokenLifetimeSeconds: 3600 },
    throttle: new LoginThrottle(),
    declarations: [...declarations, vehicles],
  });
  await app.ready();
  [admin, other, consultant] = await Promise.all([
    loginAs(app, 'admin'),
    loginAs(app, 'otherAdmin'),
    loginAs(app, 'consultant'),
  ]);
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

it('serves the full API of a newly declared entity', async () => {
  const site = (await call(app, admin, 'GET', '/api/sites?per_page=1')).json().data[0];
  const van = await call(app, admin, 'POST', '/api/vehicles', {
    registration: 'YX21 ABC',
    make: 'Ford',
    kind: 'van',
    seats: 3,
    mot_due: '2027-03-01',
    hire_rate: 4500,
    site_id: site.id,
  });
  expect(van.statusCode).toBe(201);
  expect(van.json().data).toMatchObject({
    registration: 'YX21 ABC',
    kind: 'van',
    seats: 3,
    mot_due: '2027-03-01',
    hire_rate: 4500,
    pool_car: false,
    site_id: site.id,
  });
  await call(app, admin, 'POST', '/api/vehicles', {
    registration: 'AB12 CDE',
    make: 'Toyota',
    kind: 'car',
    seats: 5,
    mot_due: '2026-12-01',
    pool_car: true,
  });

  const list = (await call(app, admin, 'GET', '/api/vehicles')).json();
  expect(list.data.map((v: any) => v.registration)).toEqual(['AB12 CDE', 'YX21 ABC']);
  expect((await call(app, admin, 'GET', '/api/vehicles?tab=vans')).json().data.map((v: any) => v.make)).toEqual([
    'Ford',
  ]);
  expect((await call(app, admin, 'GET', '/api/vehicles?pool_car=true')).json().total_count).toBe(1);
  expect(
    (await call(app, admin, 'GET', '/api/vehicles?mot_due_lte=2027-01-01')).json().data.map((v: any) => v.make),
  ).toEqual(['Toyota']);
  expect((await call(app, admin, 'GET', '/api/vehicles?q=toy')).json().total_count).toBe(1);
  expect((await call(app, admin, 'GET', '/api/vehicles?sort=seats&order=desc')).json().data[0].seats).toBe(5);

  const bad = await call(app, admin, 'POST', '/api/vehicles', {
    registration: 'yx21 abc',
    kind: 'lorry',
    seats: 12,
    mot_due: '2027-13-01',
  });
  expect(bad.statusCode).toBe(422);
  expect(bad.json().errors).toEqual({
    registration: 'Already used by another record',
    kind: 'Choose one of the listed options',
    seats: 'Must be 9 or less',
    mot_due: 'Enter a date as yyyy-MM-dd',
  });

  const id = van.json().data.id;
  expect((await call(app, admin, 'PUT', `/api/vehicles/${id}`, { seats: 2 })).json().data).toMatchObject({
    seats: 2,
    make: 'Ford',
  });
  expect((await call(app, other, 'GET', `/api/vehicles/${id}`)).statusCode).toBe(404);
  expect((await call(app, other, 'GET', '/api/vehicles')).json().total_count).toBe(0);
  expect((await call(app, consultant, 'DELETE', `/api/vehicles/${id}`)).statusCode).toBe(403);
  expect((await call(app, admin, 'DELETE', `/api/vehicles/${id}`)).statusCode).toBe(200);
  expect((await call(app, admin, 'GET', `/api/vehicles/${id}`)).statusCode).toBe(404);
});
