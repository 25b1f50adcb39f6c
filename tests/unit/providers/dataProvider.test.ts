import { beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from 'react-admin';
import { dataProvider, listQuery } from '../../../src/providers/dataProvider';
import { authProvider } from '../../../src/providers/authProvider';
import { http } from 'msw';
import { fake, resetFake } from '../msw/handlers';
import { server } from '../msw/server';
import { answer } from '../msw/contract';
import { EngineList, EngineOne } from '../../../core/contracts/records';

const last = () => fake.requests[fake.requests.length - 1];

beforeEach(async () => {
  resetFake();
  await authProvider.login({ email: 'admin@demo.test', password: 'demo-admin', loginType: 'agency' });
  fake.requests.length = 0;
});

describe('dataProvider.getList', () => {
  it('sends page, per_page, sort, order and filters, with the bearer token, and maps total_count to total', async () => {
    const r = await dataProvider.getList('clients', {
      pagination: { page: 2, perPage: 5 },
      sort: { field: 'name', order: 'DESC' },
      filter: { status: 'active' },
    });
    const req = last();
    expect(req.method).toBe('GET');
    expect(req.url.pathname).toBe('/api/clients');
    expect(Object.fromEntries(req.url.searchParams)).toEqual({
      page: '2',
      per_page: '5',
      sort: 'name',
      order: 'desc',
      status: 'active',
    });
    expect(req.authorization).toBe(`Bearer ${localStorage.getItem('token')}`);
    expect(r.total).toBe(20); // 30 clients, 10 inactive
    expect(r.data).toHaveLength(5);
    expect(r.data[0].name > r.data[4].name).toBe(true);
  });

  it('sends order=asc for ASC and leaves out empty filters', async () => {
    await dataProvider.getList('clients', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'id', order: 'ASC' },
      filter: { q: '', status: undefined, nothing: null },
    });
    expect(Object.fromEntries(last().url.searchParams)).toEqual({
      page: '1',
      per_page: '25',
      sort: 'id',
      order: 'asc',
    });
  });

  it('listQuery joins array filters with commas', () => {
    expect(listQuery({ filter: { ids: [1, 2, 3] } })).toBe('ids=1%2C2%2C3');
  });
});

describe('dataProvider one record and many', () => {
  it('getOne calls GET /api/{resource}/{id} and unwraps data', async () => {
    const r = await dataProvider.getOne('clients', { id: 3 });
    expect(last().url.pathname).toBe('/api/clients/3');
    expect(r.data).toMatchObject({ id: 3, name: 'Client 03' });
  });

  it('getMany sends the ids', async () => {
    const r = await dataProvider.getMany('clients', { ids: [2, 5, 9] });
    const q = last().url.searchParams;
    expect(q.get('ids')).toBe('2,5,9');
    expect(q.get('per_page')).toBe('3');
    expect(r.data.map((x: any) => x.id).sort()).toEqual([2, 5, 9]);
  });

  it('getMany with no ids makes no call', async () => {
    expect(await dataProvider.getMany('clients', { ids: [] })).toEqual({ data: [] });
    expect(fake.requests).toHaveLength(0);
  });

  it('getManyReference filters by the target', async () => {
    const r = await dataProvider.getManyReference('clients', {
      target: 'status',
      id: 'inactive',
      pagination: { page: 1, perPage: 50 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    expect(last().url.searchParams.get('status')).toBe('inactive');
    expect(r.total).toBe(10);
  });
});

describe('dataProvider writes', () => {
  it('create POSTs the JSON body and answers the created record', async () => {
    const r = await dataProvider.create('clients', { data: { name: 'New Home', status: 'active' } });
    const req = last();
    expect(req.method).toBe('POST');
    expect(req.url.pathname).toBe('/api/clients');
    expect(req.body).toEqual({ name: 'New Home', status: 'active' });
    expect(r.data).toMatchObject({ id: 31, name: 'New Home' });
  });

  it('update PUTs to /api/{resource}/{id}', async () => {
    const r = await dataProvider.update('clients', { id: 4, data: { name: 'Renamed' }, previousData: { id: 4 } });
    expect(last()).toMatchObject({ method: 'PUT', body: { name: 'Renamed' } });
    expect(last().url.pathname).toBe('/api/clients/4');
    expect(r.data).toMatchObject({ id: 4, name: 'Renamed' });
  });

  it('delete DELETEs /api/{resource}/{id} and answers the deleted record', async () => {
    const r = await dataProvider.delete('clients', { id: 6, previousData: { id: 6 } });
    expect(last().method).toBe('DELETE');
    expect(last().url.pathname).toBe('/api/clients/6');
    expect(r.data).toMatchObject({ id: 6 });
    expect(fake.records.get('clients')!.some((c) => c.id === 6)).toBe(false);
  });

  it('updateMany and deleteMany call once per id and answer the ids', async () => {
    expect(await dataProvider.updateMany('clients', { ids: [1, 2], data: { status: 'inactive' } })).toEqual({
      data: [1, 2],
    });
    expect(
      fake.requests
        .filter((r) => r.method === 'PUT')
        .map((r) => r.url.pathname)
        .sort(),
    ).toEqual(['/api/clients/1', '/api/clients/2']);
    expect(await dataProvider.deleteMany('clients', { ids: [7, 8] })).toEqual({ data: [7, 8] });
    expect(fake.requests.filter((r) => r.method === 'DELETE')).toHaveLength(2);
  });
});

describe('dataProvider errors', () => {
  it('422 surfaces as HttpError carrying body.errors per field', async () => {
    const err = await dataProvider.create('clients', { data: { name: '  ' } }).catch((e) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err.status).toBe(422);
    expect(err.message).toBe('Some fields need your attention.');
    expect(err.body.errors).toEqual({ name: 'Required' });
  });

  it('404 surfaces as HttpError with the server message', async () => {
    const err = await dataProvider.getOne('clients', { id: 999 }).catch((e) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err.status).toBe(404);
    expect(err.message).toBe('Record not found.');
  });

  it('401 surfaces as HttpError status 401 (which checkError turns into a sign-out)', async () => {
    localStorage.setItem('token', 'garbage');
    const err = await dataProvider
      .getList('clients', { pagination: { page: 1, perPage: 5 }, sort: { field: 'id', order: 'ASC' }, filter: {} })
      .catch((e) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err.status).toBe(401);
  });
});

describe('dataProvider pages larger than the API serves (CSV export)', () => {
  beforeEach(() => {
    fake.records.set(
      'vehicles',
      Array.from({ length: 250 }, (_, i) => ({ id: i + 1, name: `V${String(i + 1).padStart(3, '0')}` })),
    );
  });

  it('gathers them from consecutive API pages of 100', async () => {
    const r = await dataProvider.getList('vehicles', {
      pagination: { page: 1, perPage: 10000 },
      sort: { field: 'name', order: 'ASC' },
      filter: {},
    });
    expect(r.total).toBe(250);
    expect(r.data.map((v: any) => v.id)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    const pages = fake.requests
      .filter((q) => q.url.pathname === '/api/vehicles')
      .map((q) => [q.url.searchParams.get('page'), q.url.searchParams.get('per_page')]);
    expect(pages).toEqual([
      ['1', '100'],
      ['2', '100'],
      ['3', '100'],
    ]);
  });

  it('keeps the requested window when it does not start on an API page', async () => {
    const r = await dataProvider.getList('vehicles', {
      pagination: { page: 2, perPage: 150 },
      sort: { field: 'name', order: 'ASC' },
      filter: {},
    });
    expect(r.data.map((v: any) => v.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 151));
  });
});

describe('dataProvider: references a list brings along', () => {
  const roles = [
    { id: 3, name: 'Registered Nurse' },
    { id: 5, name: 'Chef' },
  ];
  const listWithReferences = () =>
    server.use(
      http.get('/api/candidates', () =>
        answer('GET /api/candidates', EngineList, {
          data: [
            { id: 1, job_role_id: 3 },
            { id: 2, job_role_id: 5 },
          ],
          total_count: 2,
          total_pages: 1,
          current_page: 1,
          per_page: 25,
          references: { job_roles: roles },
        }),
      ),
      http.get('/api/job_roles', ({ request }) => {
        fake.requests.push({ method: 'GET', url: new URL(request.url), authorization: null, body: null });
        return answer('GET /api/job_roles', EngineList, {
          data: [{ id: 3, name: 'Registered Nurse (from the API)' }],
          total_count: 1,
          total_pages: 1,
          current_page: 1,
          per_page: 25,
          references: {},
        });
      }),
    );

  it('hands them to react-admin as meta.prefetched and answers getMany of them without a request', async () => {
    listWithReferences();
    const list = await dataProvider.getList('candidates', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    expect(list.meta).toEqual({ prefetched: { job_roles: roles } });
    fake.requests.length = 0;
    expect((await dataProvider.getMany('job_roles', { ids: ['5', 3] })).data).toEqual([roles[1], roles[0]]);
    expect(fake.requests).toHaveLength(0);
  });

  it("forgets them on sign-out: the next user of the browser is not shown the last one's records", async () => {
    listWithReferences();
    await dataProvider.getList('candidates', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    await authProvider.logout({});
    fake.requests.length = 0;
    await dataProvider.getMany('job_roles', { ids: ['5', 3] });
    expect(fake.requests).toHaveLength(1);
  });

  it('asks the API when an id was not brought along, and after a write to that resource', async () => {
    listWithReferences();
    await dataProvider.getList('candidates', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    fake.requests.length = 0;
    await dataProvider.getMany('job_roles', { ids: [3, 9] });
    expect(fake.requests).toHaveLength(1);
    server.use(
      http.put('/api/job_roles/3', () =>
        answer('PUT /api/job_roles/:id', EngineOne, { data: { id: 3, name: 'Nurse' } }),
      ),
    );
    await dataProvider.update('job_roles', { id: 3, data: { name: 'Nurse' }, previousData: roles[0] });
    const r = await dataProvider.getMany('job_roles', { ids: [3] });
    expect(r.data[0].name).toBe('Registered Nurse (from the API)');
    expect(fake.requests).toHaveLength(2);
  });
});
