import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../server/app';
import { LoginThrottle } from '../../server/auth/throttle';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';

let t: TestApp;
let admin: string;
let consultant: string;
const apps: FastifyInstance[] = [];
let siteDir: string;

/** Another app on the test database, with its own settings (a small rate limit, the built app's files). */
async function appWith(
  config: { rateLimitPerMinute?: number; staticDir?: string },
  extra?: (app: FastifyInstance) => void,
) {
  const app = await buildApp({
    db: t.db,
    config: { tokenLifetimeSeconds: 3600, ...config },
    throttle: new LoginThrottle(),
    rateLimit: { namespace: `${randomBytes(6).toString('hex')}:` },
  });
  extra?.(app);
  await app.ready();
  apps.push(app);
  return app;
}

beforeAll(async () => {
  t = await makeTestApp();
  [admin, consultant] = await Promise.all([loginAs(t.app, 'admin'), loginAs(t.app, 'consultant')]);
  // A stand-in for dist/client: the page and one asset.
  siteDir = mkdtempSync(join(tmpdir(), 'hardening-site-'));
  writeFileSync(
    join(siteDir, 'index.html'),
    '<!doctype html><title>app</title><script type="module" src="/assets/app.js"></script>',
  );
  mkdirSync(join(siteDir, 'assets'));
  writeFileSync(join(siteDir, 'assets', 'app.js'), 'console.log(1)');
});
afterAll(async () => {
  for (const a of apps) await a.close();
  await t?.close();
  if (siteDir) rmSync(siteDir, { recursive: true, force: true });
});

const anonymous = (
  app: FastifyInstance,
  url: string,
  method: 'GET' | 'HEAD' | 'PUT' | 'DELETE' | 'POST' = 'GET',
  headers: Record<string, string> = {},
) => app.inject({ method, url, headers });

/** Never a record, never a stack, never a 500. */
function expectNoData(res: LightMyRequestResponse, url: string) {
  expect([401, 404], `${url} answered ${res.statusCode}: ${res.body.slice(0, 200)}`).toContain(res.statusCode);
  expect(res.body).not.toMatch(/"data"|Brightway|Meadowbank|at .*\.ts:\d+/);
}

describe('the guard decides on the matched route, never on the raw URL', () => {
  it('anonymous GET /%61pi/clients (the router decodes it to /api/clients) answers 401, not 500 or data', async () => {
    const res = await anonymous(t.app, '/%61pi/clients');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Your session has expired. Please sign in again.' });
    // It is the clients route: with a token it answers the list.
    const signedIn = await call(t.app, admin, 'GET', '/%61pi/clients');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().data.length).toBeGreaterThan(0);
  });

  const tricks = [
    '/%61pi/clients',
    '/api/%63lients',
    '/%61%70%69/%63%6c%69%65%6e%74%73',
    '/%2561pi/clients',
    '//api/clients',
    '/api//clients',
    '/api/clients/',
    '/API/clients',
    '/Api/Clients',
    '/api/clients%2F',
    '/api%2Fclients',
    '/api/clients%00',
    '/api/clients;x',
    '/api/./clients',
    '/api/../api/clients',
    '/./api/clients',
    '/api/clients?',
    '/api/clients#x',
    '/api/clients/%31',
    '/%61pi/clients/1',
    '/api/candidates?q=a',
    '/%61pi/candidates',
    '/%61pi/agency_notifications',
    '/%61pi/search_candidate?candidate_query=ab',
    '/%61pi/admin_login',
    '/%61pi/merchants/1',
    '/%61pi/docs/../clients',
  ];
  it.each(tricks)('anonymous GET %s answers 401 or 404, never data', async (url) => {
    expectNoData(await anonymous(t.app, url), url);
    expectNoData(await anonymous(t.app, url, 'HEAD'), `HEAD ${url}`);
    expectNoData(
      await anonymous(t.app, url, 'GET', { authorization: `Bearer ${randomBytes(32).toString('base64url')}` }),
      `invented token ${url}`,
    );
  });

  it('the same tricks answer 401 or 404 on the product with its pages (the app’s page at most, never data)', async () => {
    const site = await appWith({ staticDir: siteDir });
    for (const url of tricks) {
      const res = await anonymous(site, url);
      if (res.statusCode === 200) expect(res.body, url).toContain('<title>app</title>');
      else expectNoData(res, url);
    }
    expect((await anonymous(site, '/%61pi/clients')).statusCode).toBe(401);
    expect((await anonymous(site, '/%61pi/nowhere')).statusCode).toBe(404);
  });

  it('writes through encoded paths are refused as well', async () => {
    for (const [method, url] of [
      ['PUT', '/%61pi/clients/1'],
      ['DELETE', '/%61pi/clients/1'],
      ['POST', '/%61pi/clients'],
      ['PUT', '/%61pi/merchant_notification_read_all'],
    ] as const) {
      const res = await t.app.inject({ method, url, payload: { name: 'x' } });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('every documented API route refuses an anonymous caller, except the sign-in routes, the invitation links and capability links', async () => {
    const spec = (await anonymous(t.app, '/api/docs/json')).json();
    const tried: string[] = [];
    for (const [path, ops] of Object.entries<Record<string, unknown>>(spec.paths)) {
      for (const method of Object.keys(ops).filter((m) => ['get', 'post', 'put', 'delete'].includes(m))) {
        const url = path.replace(/\{[^}]+\}/g, '1');
        const res = await t.app.inject({
          method: method.toUpperCase() as 'GET',
          url,
          ...(method === 'get' || method === 'delete' ? {} : { payload: {} }),
        });
        tried.push(`${method} ${path}`);
        if (/^\/api\/(admin|client|staff)_login$/.test(path) && method === 'post')
          expect(res.statusCode, `${method} ${path}`).not.toBe(200);
        // The invite link's token is the credential: a made-up one finds nothing, before the (empty) password is
        // looked at (issue 30.17).
        else if (/^\/api\/(staff|user)_invites\/\{[^}]+\}$/.test(path))
          expect(res.statusCode, `${method} ${path}`).toBe(404);
        // So is a capability link's: a made-up one is no link.
        else if (/^\/api\/capability\/\{[^}]+\}/.test(path)) expect(res.statusCode, `${method} ${path}`).toBe(404);
        else expect(res.statusCode, `${method} ${path}`).toBe(401);
      }
    }
    expect(tried.length).toBeGreaterThan(20);
    expect(tried).toContain('get /api/clients');
  });

  it('a route that says nothing about access needs a token (never public by omission), inside or outside /api', async () => {
    const app = await appWith({}, (a) => {
      a.get('/api/unmarked', async () => ({ data: 'secret' }));
      a.get('/unmarked', async () => ({ data: 'secret' }));
      a.get('/api/marked-public', { config: { access: 'public' } }, async () => ({ ok: true }));
    });
    for (const url of ['/api/unmarked', '/%61pi/unmarked', '/unmarked', '/%75nmarked']) {
      expect((await anonymous(app, url)).statusCode, url).toBe(401);
      expect((await call(app, admin, 'GET', url)).json(), url).toEqual({ data: 'secret' });
    }
    expect((await anonymous(app, '/api/marked-public')).statusCode).toBe(200);
  });

  it('the app’s pages and files, /api/health and the API description stay public', async () => {
    const site = await appWith({ staticDir: siteDir });
    expect((await anonymous(site, '/')).body).toContain('<title>app</title>');
    expect((await anonymous(site, '/client/client-list')).body).toContain('<title>app</title>');
    expect((await anonymous(site, '/assets/app.js')).body).toBe('console.log(1)');
    expect((await anonymous(site, '/api/health')).json()).toEqual({ ok: true });
    expect((await anonymous(site, '/api/nowhere')).statusCode).toBe(404);
    const docs = await anonymous(site, '/api/docs');
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger-ui');
    for (const file of [
      '/api/docs/static/swagger-ui-bundle.js',
      '/api/docs/static/swagger-ui.css',
      '/api/docs/static/swagger-initializer.js',
      '/api/docs/json',
    ]) {
      expect((await anonymous(site, file)).statusCode, file).toBe(200);
    }
  });
});

describe('security headers on every answer', () => {
  const cspOf = (res: LightMyRequestResponse) =>
    Object.fromEntries(
      String(res.headers['content-security-policy'])
        .split(';')
        .map((d) => d.trim())
        .filter(Boolean)
        .map((d) => {
          const [name, ...values] = d.split(/\s+/);
          return [name, values.join(' ')];
        }),
    );

  function expectSecurityHeaders(res: LightMyRequestResponse, what: string) {
    expect(cspOf(res), what).toEqual({
      'default-src': "'self'",
      'script-src': "'self'",
      'script-src-attr': "'none'",
      'style-src': "'self' 'unsafe-inline'",
      'img-src': "'self' data: blob:",
      'font-src': "'self' data:",
      'connect-src': "'self'",
      'object-src': "'none'",
      'base-uri': "'self'",
      'form-action': "'self'",
      'frame-ancestors': "'none'",
    });
    expect(res.headers['x-content-type-options'], what).toBe('nosniff');
    expect(res.headers['referrer-policy'], what).toBe('no-referrer');
    expect(res.headers['x-frame-options'], what).toBe('DENY');
  }

  it('API answers of every kind carry them and Cache-Control: no-store', async () => {
    const boom = await appWith({}, (a) => {
      a.get('/api/boom', { config: { access: 'public' } }, async () => {
        throw new Error('secret internal detail');
      });
    });
    const answers: [string, LightMyRequestResponse, number][] = [
      ['200 list', await call(t.app, admin, 'GET', '/api/clients'), 200],
      [
        '200 record',
        await call(
          t.app,
          admin,
          'GET',
          `/api/clients/${(await call(t.app, admin, 'GET', '/api/clients')).json().data[0].id}`,
        ),
        200,
      ],
      ['401', await anonymous(t.app, '/api/clients'), 401],
      ['401 encoded', await anonymous(t.app, '/%61pi/clients'), 401],
      ['403', await call(t.app, consultant, 'DELETE', '/api/clients/1'), 403],
      ['404 record', await call(t.app, admin, 'GET', '/api/clients/987654'), 404],
      ['404 route', await anonymous(t.app, '/api/nowhere'), 404],
      ['400 paging', await call(t.app, admin, 'GET', '/api/clients?page=0'), 400],
      ['422 record', await call(t.app, admin, 'POST', '/api/clients', { name: '' }), 422],
      [
        '400 bad JSON',
        await t.app.inject({
          method: 'POST',
          url: '/api/clients',
          headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
          payload: '{"name":',
        }),
        400,
      ],
      [
        '200 sign-in',
        await t.app.inject({
          method: 'POST',
          url: '/api/admin_login',
          payload: { email: 'admin@demo.test', password: 'demo-admin' },
        }),
        200,
      ],
      ['500', await anonymous(boom, '/api/boom'), 500],
    ];
    for (const [what, res, status] of answers) {
      expect(res.statusCode, what).toBe(status);
      expectSecurityHeaders(res, what);
      expect(res.headers['cache-control'], what).toBe('no-store');
    }
    // The unexpected error says nothing about its cause.
    const [, crash] = answers.at(-1)!;
    expect(crash.json()).toEqual({ message: 'An unexpected error occurred. Please try again later.' });
    expect(crash.body).not.toContain('secret');
  });

  it('the app’s page, its files and the API description carry them too (the page is not kept stale, files may be cached)', async () => {
    const site = await appWith({ staticDir: siteDir });
    const page = await anonymous(site, '/staffs/12');
    expectSecurityHeaders(page, 'page');
    expect(page.headers['cache-control']).toBe('no-cache');
    const asset = await anonymous(site, '/assets/app.js');
    expectSecurityHeaders(asset, 'asset');
    // Built files are named after their content: kept for a year without asking again.
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/api/docs', '/api/docs/static/swagger-ui-bundle.js', '/api/docs/json']) {
      const res = await anonymous(site, url);
      expectSecurityHeaders(res, url);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
  });
});

describe('per-token rate limit', () => {
  it('past the limit one token answers 429 with Retry-After while another token still passes', async () => {
    const app = await appWith({ rateLimitPerMinute: 5 });
    const [a, b] = [await loginAs(app, 'admin'), await loginAs(app, 'consultant')];
    for (let i = 0; i < 5; i++) expect((await call(app, a, 'GET', '/api/clients?per_page=1')).statusCode).toBe(200);
    const limited = await call(app, a, 'GET', '/api/clients?per_page=1');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.headers['cache-control']).toBe('no-store');
    expect(limited.json().message).toMatch(/^Too many requests\. Try again in \d+ (second|minute)s?\.$/);
    // Every route of the API counts, not only lists.
    expect((await call(app, a, 'GET', '/api/agency_notifications')).statusCode).toBe(429);
    // Another session is counted on its own, even from the same address.
    expect((await call(app, b, 'GET', '/api/clients?per_page=1')).statusCode).toBe(200);
    // The app's own pages are not API calls (no static dir here: an unknown page is a plain 404).
    expect((await app.inject({ url: '/not-api', headers: { authorization: `Bearer ${a}` } })).statusCode).toBe(404);
  });

  it('callers without a valid token are counted by address, so invented tokens do not escape the limit', async () => {
    const app = await appWith({ rateLimitPerMinute: 3 });
    const from = (remoteAddress: string) =>
      app.inject({
        url: '/api/clients',
        remoteAddress,
        headers: { authorization: `Bearer ${randomBytes(32).toString('base64url')}` },
      });
    for (let i = 0; i < 3; i++) expect((await from('203.0.113.7')).statusCode).toBe(401);
    const limited = await from('203.0.113.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await from('203.0.113.8')).statusCode).toBe(401);
  });

  it('the default limit is generous: 1,200 requests a minute per session', async () => {
    const res = await call(t.app, admin, 'GET', '/api/clients?per_page=1');
    expect(res.headers['x-ratelimit-limit']).toBe('1200');
  });
});

describe('bounded input', () => {
  it('q and every other query value are at most 200 characters; a longer one answers 400 naming it', async () => {
    const long = 'a'.repeat(201);
    const q = await call(t.app, admin, 'GET', `/api/candidates?q=${long}`);
    expect(q.statusCode).toBe(400);
    expect(q.json().errors).toEqual({ q: 'Must be at most 200 characters' });
    expect((await call(t.app, admin, 'GET', `/api/candidates?q=${'a'.repeat(200)}`)).statusCode).toBe(200);
    expect((await call(t.app, admin, 'GET', `/api/clients?status=${long}`)).json().errors).toEqual({
      status: 'Must be at most 200 characters',
    });
    expect((await call(t.app, admin, 'GET', `/api/clients?sort=${long}&order=${long}`)).json().errors).toEqual({
      sort: 'Must be at most 200 characters',
      order: 'Must be at most 200 characters',
    });
    expect((await call(t.app, admin, 'GET', `/api/search_candidate?candidate_query=${long}`)).json().errors).toEqual({
      candidate_query: 'Must be at most 200 characters',
    });
    // Repeated keys count together.
    expect(
      (await call(t.app, admin, 'GET', `/api/candidates?q=${'a'.repeat(150)}&q=${'b'.repeat(150)}`)).statusCode,
    ).toBe(400);
    // Over-long names are refused without echoing them.
    const name = await call(t.app, admin, 'GET', `/api/clients?${'k'.repeat(300)}=1`);
    expect(name.statusCode).toBe(400);
    expect(name.body).not.toContain('k'.repeat(300));
  });

  it('a page of 100 ids (react-admin fetching references) is still accepted', async () => {
    const ids = Array.from({ length: 100 }, (_, i) => 2147483547 + i).join(',');
    expect(ids.length).toBeGreaterThan(1000);
    const res = await call(t.app, admin, 'GET', `/api/clients?ids=${ids}&per_page=100`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([]);
  });

  it('a body over 2 MB answers 413 with a plain message', async () => {
    const res = await call(t.app, admin, 'POST', '/api/clients', { name: 'x', notes: 'n'.repeat(2 * 1024 * 1024) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: expect.any(String) });
    expect(res.body).not.toMatch(/\.ts:\d+|node_modules/);
  });

  it('public routes read a few KB: a larger body answers 413 in words before it is parsed (issue 30.11)', async () => {
    // 120,000 keys: what cost 0.3 s of parsing per request before.
    const keys = JSON.stringify(Object.fromEntries(Array.from({ length: 120_000 }, (_, i) => [`k${i}`, 1])));
    const big = JSON.stringify({ email: 'a@b.test', password: 'x'.repeat(9000) });
    for (const url of [
      '/api/admin_login',
      '/api/client_login',
      '/api/staff_login',
      '/api/user_invites/abc',
      '/api/staff_invites/abc',
    ])
      for (const payload of [keys, big]) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          payload,
          headers: { 'content-type': 'application/json' },
        });
        expect(res.statusCode, url).toBe(413);
        expect(res.json()).toEqual({ message: 'The request is too large: at most 8 KB here.' });
      }
    // A link's action takes what its declared input needs (a drawn signature) and no more.
    const link = await t.app.inject({
      method: 'POST',
      url: '/api/capability/abc/actions/approve',
      payload: keys,
      headers: { 'content-type': 'application/json' },
    });
    expect(link.statusCode).toBe(413);
    expect(link.json().message).toMatch(/^The request is too large: at most \d+ KB here\.$/);
    const signature = await t.app.inject({
      method: 'POST',
      url: '/api/capability/abc/actions/approve',
      payload: { signer_name: 'A', signature: `data:image/png;base64,${'A'.repeat(190_000)}` },
    });
    expect(signature.statusCode, 'a large signature still reaches the link check').toBe(404);
    // A signed-in user's calls keep the general limit.
    const notes = await call(t.app, admin, 'POST', '/api/clients', { name: 'x'.repeat(300), notes: 'n'.repeat(9000) });
    expect(notes.statusCode).toBe(422);
  });

  it('paging numbers too large to mean a page answer 400, not 500', async () => {
    for (const page of ['1e308', '1e20', '9007199254740993', 'Infinity']) {
      const res = await call(t.app, admin, 'GET', `/api/clients?page=${page}`);
      expect(res.statusCode, page).toBe(400);
      expect(res.json().errors.page, page).toBeDefined();
    }
  });
});

describe('hostile values are field errors (422) before anything touches the database', () => {
  const hostile = JSON.parse('{"toString":"x"}');
  let clientId: number;
  let categoryId: number;
  let candidateId: number;
  beforeAll(async () => {
    clientId = (await call(t.app, admin, 'GET', '/api/clients?per_page=1')).json().data[0].id;
    categoryId = (await call(t.app, admin, 'GET', '/api/document_categories?per_page=1')).json().data[0].id;
    candidateId = (await call(t.app, admin, 'GET', '/api/candidates?per_page=1')).json().data[0].id;
  });
  const put = (url: string, body: unknown) => call(t.app, admin, 'PUT', url, body);
  async function expect422(res: LightMyRequestResponse, field: string, message?: string) {
    expect(res.statusCode, res.body.slice(0, 300)).toBe(422);
    expect(Object.keys(res.json().errors), res.body.slice(0, 300)).toContain(field);
    if (message) expect(res.json().errors[field]).toBe(message);
  }

  it('{"toString":"x"} in a text, a unique text and a reference field', async () => {
    await expect422(await put(`/api/clients/${clientId}`, { name: hostile }), 'name', 'Must be text');
    await expect422(await put(`/api/clients/${clientId}`, { code: hostile }), 'code', 'Must be text');
    await expect422(
      await put(`/api/candidates/${candidateId}`, { job_role_id: hostile }),
      'job_role_id',
      'Choose an existing record',
    );
    await expect422(await put(`/api/candidates/${candidateId}`, { email: hostile }), 'email', 'Must be text');
  });

  it('" " and [] in boolean and date fields, [] in a choice, " " in a number field', async () => {
    for (const v of [' ', []]) {
      await expect422(
        await put(`/api/document_categories/${categoryId}`, { mandatory: v }),
        'mandatory',
        'Must be yes or no',
      );
      await expect422(
        await put(`/api/candidates/${candidateId}`, { date_of_birth: v }),
        'date_of_birth',
        'Enter a date as yyyy-MM-dd',
      );
    }
    await expect422(
      await put(`/api/clients/${clientId}`, { client_type: [] }),
      'client_type',
      'Choose one of the listed options',
    );
    await expect422(
      await put(`/api/clients/${clientId}`, { client_type: {} }),
      'client_type',
      'Choose one of the listed options',
    );
    await expect422(
      await put(`/api/document_categories/${categoryId}`, { validity_months: ' ' }),
      'validity_months',
      'Must be a number',
    );
    const stored = (await call(t.app, admin, 'GET', `/api/document_categories/${categoryId}`)).json().data;
    expect(stored.validity_months).not.toBe(0);
  });

  it('custom_fields: not an object, an undeclared key, a value nested 5,000 deep', async () => {
    await expect422(await put(`/api/candidates/${candidateId}`, { custom_fields: 'abc' }), 'custom_fields');
    await expect422(await put(`/api/candidates/${candidateId}`, { custom_fields: ['a'] }), 'custom_fields');
    await expect422(
      await put(`/api/candidates/${candidateId}`, { custom_fields: { no_such_field: 'x' } }),
      'custom_fields.no_such_field',
      'Unknown field',
    );
    const depth = 5000;
    const body = `{"custom_fields":{"uniform_size":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}`;
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/candidates/${candidateId}`,
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      payload: body,
    });
    await expect422(res, 'custom_fields.uniform_size');
    const after = (await call(t.app, admin, 'GET', `/api/candidates/${candidateId}`)).json().data.custom_fields;
    expect(Object.keys(after)).not.toContain('0');
    expect(Object.keys(after)).not.toContain('no_such_field');
  });
});
