import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, DEMO, login, loginAs, makeTestApp, type TestApp } from './helpers';
import {
  matrix,
  PRINCIPALS,
  PUBLIC_ROUTES,
  unknownCustomOutcomes,
  type MatrixRow,
  type Outcome,
  type Principal,
} from './authz-matrix';
import type { FastifyInstance } from 'fastify';
import { isAuthorisedRoute } from '../../server/engine/routes';
import { buildApp } from '../../server/app';
import { route } from '../../server/routes/route';
import { addDaysToDate, agencyToday } from '../../core/domain/time/agencyTime';
import { areas } from './authz/index';
import type { AuthzContext, Req } from './authz/area';
import { closableShift } from './authz/shifts';
import { contextFor } from './capabilityLinks';
import { mintLink } from '../../server/engine/capability';
import { declarationByName, declarations } from '../../core/resources/declarations';
import { ALL_PRIVILEGES, CUSTOM_PASSWORD, newRole, userWithRole } from './customRoles';

// The authorization matrix run for real: every registered route is in the table, and every row answers as the
// table says for the eight principals, against records of both agencies and both clients.
let t: TestApp;
const tokens = {} as Record<Principal, string | undefined>;
/** A separate admin session for preparing records, so the principals' own rate-limit budgets stay for the rows. */
let setup: string;
let setupB: string;
let today: string;
const ids = { merchantA: 0, merchantB: 0, clientA: 0, clientB: 0 };
/** Agency A's record per resource (of client A where it has a client), and agency B's. */
const shared: Record<string, number | string> = {};
const sharedB: Record<string, number | string> = {};
const ownedByStaff: Record<string, number> = {};
let candidateEmail: string;
/** The custom roles' users' e-mail addresses (their password is CUSTOM_PASSWORD). */
const customEmail = {} as Record<'customNone' | 'customFull' | 'customUnit', string>;
/** A new session of a signed-in principal (the sign-out row ends the one it is given). */
const signInAgain = (p: Exclude<Principal, 'anonymous' | 'link'>) =>
  p === 'customNone' || p === 'customFull' || p === 'customUnit'
    ? login(t.app, 'admin', customEmail[p], CUSTOM_PASSWORD)
    : loginAs(t.app, WHO[p]);

/** What the areas' rows (tests/api/authz/) run with. */
const ctx: AuthzContext = {
  get t() {
    return t;
  },
  get setup() {
    return setup;
  },
  get setupB() {
    return setupB;
  },
  get today() {
    return today;
  },
  tokens,
  ids,
  shared,
  sharedB,
  ownedByStaff,
  must: (res, status) => must(res, status),
  next: () => next(),
  unused: (key, make) => unused(key, make),
};

/**
 * The records made for the row's requests, kept for its next principal when the one they were made for was refused
 * (401, 403 or 404 to every request it made: a refusal changes nothing). A row that deletes or changes state needs a
 * record in the right state for each principal (a timesheet generated, submitted and verified, say); most principals
 * are refused, so of the 1,397 records the rows made, 1,014 were never changed. Now made only when none is left.
 */
const spare = new Map<string, unknown[]>();
/** What `unused` handed to the current principal's request: back to `spare` if it is refused. */
let handedOut: [string, unknown][] = [];
async function unused<T>(key: string, make: () => Promise<T>): Promise<T> {
  const kept = spare.get(key)?.pop();
  const value = kept === undefined ? await make() : (kept as T);
  handedOut.push([key, value]);
  return value;
}
/** After a principal's requests: what it was handed goes back for the next one when every answer was a refusal. */
function settle(statuses: number[]) {
  if (statuses.every((s) => REFUSALS.includes(s)))
    for (const [key, value] of handedOut) spare.set(key, [...(spare.get(key) ?? []), value]);
  handedOut = [];
}

const WHO: Record<
  Exclude<Principal, 'anonymous' | 'link' | 'customNone' | 'customFull' | 'customUnit'>,
  keyof typeof DEMO
> = {
  admin: 'admin',
  consultant: 'consultant',
  clientA: 'client',
  clientB: 'client2',
  otherAdmin: 'otherAdmin',
  staff: 'staff',
};
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');
let n = 0;
const next = () => ++n;

async function must(res: { statusCode: number; body: string; json(): any }, status = 200) {
  if (res.statusCode !== status) throw new Error(`setup answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  return res.json().data;
}
const upload = (token: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/files?kind=document',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/octet-stream',
      'x-file-name': 'scan.pdf',
    },
    payload: PDF,
  });

/** Bodies that would be stored for an allowed principal of agency A (names are unique on every call). */
const createBody: Record<string, (token: string) => Promise<Record<string, unknown>>> = {
  clients: async () => ({ name: `Authz Client ${next()}`, billing_email: 'accounts@authz.example' }),
  sites: async () => ({
    name: `Authz Site ${next()}`,
    client_id: ids.clientA,
    address: { line1: '1 Test Street', city: 'Leeds', postcode: 'LS1 1AA' },
  }),
  candidates: async () => ({
    first_name: 'Authz',
    last_name: `Person${next()}`,
    email: `authz.${next()}@authz.example`,
    job_role_id: shared.job_roles,
  }),
  job_roles: async () => ({ name: `Authz Role ${next()}` }),
  staff_statuses: async () => ({ name: `Authz Status ${next()}` }),
  employment_types: async () => ({ name: `Authz Type ${next()}` }),
  staff_profiles: async () => ({ name: `Authz Profile ${next()}`, job_role_id: shared.job_roles }),
  document_categories: async () => ({ name: `Authz Category ${next()}` }),
  staff_detail_fields: async () => ({ label: 'Authz field', key: `authz_${next()}`, field_type: 'text' }),
  // The file must be the caller's own upload.
  candidate_documents: async (token) => ({
    candidate_id: shared.candidates,
    document_category_id: shared.document_categories,
    file: (await upload(token)).json().data?.id ?? 'none',
    issue_date: today,
    expiry_date: addDaysToDate(today, 365),
  }),
  candidate_restrictions: async () => ({
    candidate_id: shared.candidates,
    client_id: ids.clientA,
    reason: 'Authz test',
    restricted_on: today,
  }),
  // One per staff member: a new staff member each time.
  candidate_preferences: async () => ({ candidate_id: await fresh('candidates'), prefers_night: true }),
  // A past day (the demo fills the coming weeks) of a new staff member each time: one entry per staff member and day.
  availability: async () => ({
    candidate_id: await fresh('candidates'),
    date: addDaysToDate(today, -100),
    status: 'available',
  }),
  audit_entries: async () => ({ event: 'create' }),
};

const bodyFor = (resource: string, token: string) => {
  const own = areas.find((a) => a.createBody?.[resource])?.createBody?.[resource];
  if (own) return own(ctx, token);
  return createBody[resource](token);
};

/** A new record of agency A (created by the setup admin), for the rows that delete or change state. */
async function fresh(resource: string): Promise<number> {
  if (resource === 'audit_entries') return Number(shared.audit_entries);
  const own = areas.find((a) => a.fresh?.[resource])?.fresh?.[resource];
  if (own) return own(ctx);
  return (await must(await call(t.app, setup, 'POST', `/api/${resource}`, await bodyFor(resource, setup)), 201)).id;
}
/** A new staff member in the state the action needs. */
async function freshFor(resource: string, action: string): Promise<number> {
  const key = `${resource} ${action}`;
  const own = areas.find((a) => a.fresh?.[key] || a.fresh?.[resource]);
  if (own) return (own.fresh![key] ?? own.fresh![resource])(ctx);
  if (resource === 'candidate_documents') return fresh(resource);
  const id = await fresh('candidates');
  if (action === 'activate' || action === 'deactivate')
    await must(await call(t.app, setup, 'POST', `/api/candidates/${id}/actions/approve`, {}));
  if (action === 'deactivate')
    await must(
      await call(t.app, setup, 'POST', `/api/candidates/${id}/actions/activate`, { override_reason: 'Authz test' }),
    );
  return id;
}
const actionInput: Record<string, Record<string, unknown>> = {
  'candidates reject': { reason: 'Authz test' },
  'candidates activate': { override_reason: 'Authz test' },
  'candidate_documents reject': { reason: 'Blurred scan' },
};

const mondayOf = (d: string) => addDaysToDate(d, -((new Date(`${d}T00:00:00Z`).getUTCDay() + 6) % 7));

/**
 * The request a row makes for a principal: agency A's record for `:id` (agency B's with `otherAgency`), a new
 * record where the row deletes or changes state, and a body an allowed principal could store.
 */
async function requestFor(r: MatrixRow, p: Principal, otherAgency = false): Promise<Req> {
  // The link principal asks as anyone without a session would; its token goes only where a link's token goes.
  const token = p === 'link' ? undefined : tokens[p];
  const key = `${r.method} ${r.url}`;
  const own = otherAgency ? sharedB : shared;
  const special: Record<string, () => Promise<Req> | Req> = {
    'GET /api/docs/static/*': () => ({ method: 'GET', url: '/api/docs/static/swagger-ui.css' }),
    // The link's holder uses their own link (a fresh one to act: a link is used up); anyone else has none to use.
    'GET /api/capability/:token': () => ({
      method: 'GET',
      url: `/api/capability/${p === 'link' ? tokens.link : NO_LINK}`,
    }),
    'POST /api/capability/:token/actions/:action': async () => ({
      method: 'POST',
      url: `/api/capability/${p === 'link' ? await freshLink() : NO_LINK}/actions/close`,
      payload: {},
    }),
    'POST /api/logout': () => ({ method: 'POST', url: r.url }),
    'POST /api/admin_login': () => ({
      method: 'POST',
      url: r.url,
      payload: { email: DEMO.admin.email, password: DEMO.admin.password },
    }),
    'POST /api/client_login': () => ({
      method: 'POST',
      url: r.url,
      payload: { email: DEMO.client.email, password: DEMO.client.password },
    }),
    'GET /api/merchants/:id': () => ({
      method: 'GET',
      url: `/api/merchants/${otherAgency ? ids.merchantB : ids.merchantA}`,
    }),
    // Nothing new: authorised and found, the agency is answered unchanged.
    'PUT /api/merchants/:id': () => ({
      method: 'PUT',
      url: `/api/merchants/${otherAgency ? ids.merchantB : ids.merchantA}`,
      payload: {},
    }),
    'PUT /api/me': () => ({ method: 'PUT', url: r.url, payload: {} }),
    // The timesheets' series, sent its own next number (of the caller's agency): authorised, nothing changes.
    'PUT /api/number_series/:series': async () => {
      const merchant = p === 'otherAdmin' ? ids.merchantB : ids.merchantA;
      const [row] = await t.db.query<{ next_number: number }>(
        `select next_number from number_series where merchant_id = $1 and series = 'TS'`,
        [merchant],
      );
      return { method: 'PUT', url: '/api/number_series/TS', payload: { next_number: row?.next_number ?? 1 } };
    },
    // A wrong current password: the demo passwords stay as they are.
    'POST /api/me/password': () => ({
      method: 'POST',
      url: r.url,
      payload: { current_password: 'not-the-password', new_password: 'another-password-1' },
    }),
    'GET /api/search_candidate': () => ({
      method: 'GET',
      url: `/api/search_candidate?candidate_query=${encodeURIComponent(candidateEmail)}`,
    }),
    'POST /api/files': () => ({
      method: 'POST',
      url: '/api/files?kind=document',
      headers: { 'content-type': 'application/octet-stream' },
      payload: PDF,
    }),
    'GET /api/files/:id': () => ({ method: 'GET', url: `/api/files/${own.file}` }),
    'GET /api/staff_availability': () => ({
      method: 'GET',
      url: `/api/staff_availability?week_start=${mondayOf(today)}`,
    }),
    'POST /api/staff_availability/copy_week': () => ({
      method: 'POST',
      url: r.url,
      payload: { week_start: mondayOf(today), candidate_ids: [Number(shared.candidates)] },
    }),
  };
  if (special[key]) return special[key]();
  const area = areas.find((a) => a.requests?.[key]);
  if (area) return area.requests![key](ctx, p, otherAgency);
  const engine = /^\/api\/(\w+)(\/:id)?(?:\/actions\/(\w+))?(\/compliance)?$/.exec(r.url);
  if (!engine) return { method: r.method, url: r.url };
  const [, resource, hasId, action, compliance] = engine;
  if (compliance) return { method: 'GET', url: `/api/candidates/${own.candidates}/compliance` };
  if (action) {
    const target = otherAgency
      ? Number(own[resource])
      : await unused(`${resource} ${action}`, () => freshFor(resource, action));
    const input = inputOf(resource, action);
    return hasId
      ? { method: 'POST', url: `/api/${resource}/${target}/actions/${action}`, payload: input }
      : { method: 'POST', url: `/api/${resource}/actions/${action}`, payload: { ids: [target], ...input } };
  }
  if (!hasId)
    return r.method === 'POST'
      ? { method: 'POST', url: r.url, payload: await bodyFor(resource, token ?? setup) }
      : { method: r.method, url: r.url };
  const id = r.method === 'DELETE' && !otherAgency ? await unused(resource, () => fresh(resource)) : own[resource];
  // An edit that sends nothing new: authorised and found, it answers the record unchanged.
  return { method: r.method, url: `/api/${resource}/${id}`, ...(r.method === 'PUT' ? { payload: {} } : {}) };
}

/** The input an action's rows send. */
const inputOf = (resource: string, action: string) =>
  actionInput[`${resource} ${action}`] ??
  areas.find((a) => a.actionInput?.[`${resource} ${action}`])?.actionInput?.[`${resource} ${action}`] ??
  {};

/** A token that names no link. */
const NO_LINK = 'not-a-capability-link-token';

/** A new link of agency A to close a worked shift: what the link principal holds. */
async function freshLink(): Promise<string> {
  const id = await closableShift(ctx);
  const admin = await contextFor(t, ids.merchantA);
  const { token } = await t.db.transaction((tx) =>
    mintLink({ ...admin, db: tx }, t.app.engine.get('shifts')!, id, {
      action: 'close',
      purpose: 'Confirm the shift was worked',
      recipient: 'approver@authz.example',
      deliveredVia: 'email',
    }),
  );
  return token;
}

async function run(req: Req, token: string | undefined) {
  return t.app.inject({ ...req, headers: { ...req.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
}
const matches = (status: number, outcome: Outcome) =>
  outcome === 'ok' ? status >= 200 && status < 300 : status === outcome;

/** The outcomes that refuse a caller: they must come before anything the caller sent is looked at. */
const REFUSALS: Outcome[] = [401, 403, 404];
/** Rows whose 404 is an answer, not a refusal: the other agency's search finds nobody (and an empty one is 400). */
const ANSWERS_404 = new Set(['GET /api/search_candidate']);
/** What names the records a request is about (kept as sent); every other value is made invalid. */
const NAMES_A_RECORD = /(^|_)(id|ids|sid)$/;
/**
 * The request with nothing valid in it but the records it names (issue 30.17): every other body and query value
 * replaced by one no field takes, and an unknown field and parameter added. A route that validates before it
 * authorises (or before it looks the named record up in the caller's scope) answers this 422 where 403 or 404 is due.
 */
function invalidOf(req: Req): Req {
  const [path, query = ''] = String(req.url).split('?');
  const params = new URLSearchParams(query);
  const kept = new URLSearchParams();
  for (const [k, v] of params) kept.set(k, NAMES_A_RECORD.test(k) ? v : '{}');
  kept.set('not_a_parameter', '{}');
  const body = req.payload;
  const payload = Buffer.isBuffer(body)
    ? Buffer.alloc(0)
    : {
        ...Object.fromEntries(
          Object.entries(body && typeof body === 'object' ? body : {}).map(([k, v]) => [
            k,
            NAMES_A_RECORD.test(k) ? v : { invalid: [[]] },
          ]),
        ),
        not_a_field: { invalid: true },
      };
  return {
    ...req,
    url: `${path}?${kept}`,
    ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { payload }),
  };
}

beforeAll(async () => {
  t = await makeTestApp({ candidates: 40, rateLimitPerMinute: 100_000 });
  const principals = Object.keys(WHO) as (keyof typeof WHO)[];
  const got = await Promise.all([
    ...principals.map((p) => loginAs(t.app, WHO[p])),
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'otherAdmin'),
  ]);
  principals.forEach((p, i) => (tokens[p] = got[i]));
  tokens.anonymous = undefined;
  [setup, setupB] = got.slice(principals.length);
  today = agencyToday('Europe/London');
  // Agency A's users of its own roles (issue 35): one granting nothing, one granting every privilege a role can, and
  // one granting as much limited to client A's business unit.
  const [{ unit }] = await t.db.query<{ unit: number }>(
    `select business_unit_id as unit from clients where name = 'Meadowbank Care Home'`,
  );
  for (const [p, privileges, units] of [
    ['customNone', [], []],
    ['customFull', ALL_PRIVILEGES, []],
    ['customUnit', ALL_PRIVILEGES, [unit]],
  ] as const) {
    const user = await userWithRole(t, setup, await newRole(t, setup, [...privileges], `Authz ${p}`, [...units]));
    customEmail[p] = user.email;
    tokens[p] = user.token;
  }

  const q = async (sql: string, params: unknown[] = []) => (await t.db.query<any>(sql, params))[0];
  ids.merchantA = (await q(`select id from merchants where company_name = 'Brightway Staffing'`)).id;
  ids.merchantB = (await q(`select id from merchants where company_name = 'Northern Care Recruitment'`)).id;
  ids.clientA = (await q(`select id from clients where name = 'Meadowbank Care Home'`)).id;
  ids.clientB = (await q(`select id from clients where name = 'Oakwood Lodge'`)).id;
  // Records the seed made: of client A where they have a client, and the other agency's.
  for (const [m, into] of [
    [ids.merchantA, shared],
    [ids.merchantB, sharedB],
  ] as const) {
    for (const table of [
      'clients',
      'job_roles',
      'staff_statuses',
      'employment_types',
      'staff_profiles',
      'document_categories',
      'staff_detail_fields',
    ]) {
      into[table] = (await q(`select id from ${table} where merchant_id = $1 order by id limit 1`, [m])).id;
    }
    into.candidates = (
      await q(`select id from candidates where merchant_id = $1 and deleted_at is null order by id limit 1`, [m])
    ).id;
  }
  shared.clients = ids.clientA;
  shared.sites = (await q('select id from sites where client_id = $1 order by id limit 1', [ids.clientA])).id;
  sharedB.sites = (await q('select id from sites where merchant_id = $1 order by id limit 1', [ids.merchantB])).id;
  candidateEmail = (await q('select email from candidates where id = $1', [shared.candidates])).email;

  // The staff records each agency makes through the API (its own admin, its own records).
  for (const [token, into, m] of [
    [setup, shared, ids.merchantA],
    [setupB, sharedB, ids.merchantB],
  ] as const) {
    const file = (await must(await upload(token), 201)).id;
    const doc = await must(
      await call(t.app, token, 'POST', '/api/candidate_documents', {
        candidate_id: into.candidates,
        document_category_id: into.document_categories,
        file,
        issue_date: today,
        expiry_date: addDaysToDate(today, 365),
      }),
      201,
    );
    into.candidate_documents = doc.id;
    into.file = file;
    const clientOfAgency = m === ids.merchantA ? ids.clientA : into.clients;
    into.candidate_restrictions = (
      await must(
        await call(t.app, token, 'POST', '/api/candidate_restrictions', {
          candidate_id: into.candidates,
          client_id: clientOfAgency,
          reason: 'Shared fixture',
          restricted_on: today,
        }),
        201,
      )
    ).id;
    // One set of preferences per staff member, and the demo may have given the first one theirs already.
    const [taken] = await t.db.query<{ id: number }>('select id from candidate_preferences where candidate_id = $1', [
      into.candidates,
    ]);
    into.candidate_preferences =
      taken?.id ??
      (
        await must(
          await call(t.app, token, 'POST', '/api/candidate_preferences', { candidate_id: into.candidates }),
          201,
        )
      ).id;
    into.availability = (
      await must(
        await call(t.app, token, 'POST', '/api/availability', {
          candidate_id: into.candidates,
          date: addDaysToDate(today, -60),
          status: 'day',
        }),
        201,
      )
    ).id;
    into.audit_entries = (await q('select id from audit_log where merchant_id = $1 order by id limit 1', [m])).id;
  }
  for (const area of areas) await area.prepare?.(ctx);
  tokens.link = await freshLink();
  // The signed-in staff member's own records of the foundation's resources that open rows to staff (staffScope):
  // their staff record, their newest document, and a category of their agency (scope 'agency': all are theirs).
  const me = (await q('select candidate_id from users where lower(email) = $1', [DEMO.staff.email])).candidate_id;
  ownedByStaff.candidates = me;
  const doc = await q('select id from candidate_documents where candidate_id = $1 order by id desc limit 1', [me]);
  if (doc) ownedByStaff.candidate_documents = doc.id;
  ownedByStaff.document_categories = Number(shared.document_categories);
});
afterAll(async () => {
  await t?.close();
});

/** What the matrix covers: the API, and the public job board's pages (the only pages that read the database). */
const PUBLIC_PAGES_AND_API = /^\/(api|careers)(\/|$)/;

/** The app's /api routes (HEAD aside) that are neither the engine's nor route()'s, and not on the public list. */
const unguarded = (app: FastifyInstance) =>
  app.routes
    .filter((r) => r.method !== 'HEAD' && PUBLIC_PAGES_AND_API.test(r.url) && !isAuthorisedRoute(r.handler))
    .map((r) => `${r.method} ${r.url}`)
    .filter((k) => !PUBLIC_ROUTES.includes(k));

describe('the table lists every route', () => {
  it('every registered /api route (HEAD aside) has a row, and every row is a registered route', async () => {
    const registered = new Set(
      t.app.routes
        .filter((r) => r.method !== 'HEAD' && PUBLIC_PAGES_AND_API.test(r.url))
        .map((r) => `${r.method} ${r.url}`),
    );
    const listed = new Set(matrix.map((r) => `${r.method} ${r.url}`));
    const missing = [...registered].filter((k) => !listed.has(k));
    const unknown = [...listed].filter((k) => !registered.has(k));
    expect(missing, `routes missing from tests/api/authz-matrix.ts:\n${missing.join('\n')}`).toEqual([]);
    expect(unknown, `rows naming no registered route:\n${unknown.join('\n')}`).toEqual([]);
    expect(listed.size, 'a route is listed twice').toBe(matrix.length);
    expect(unknownCustomOutcomes, "the custom roles' outcomes name rows that exist").toEqual([]);
  });

  it('every /api route authorises as the declarations say (the engine’s or route()), or is on the public list', () => {
    expect(unguarded(t.app), "routes neither the engine's, route()'s (server/routes/route.ts) nor public").toEqual([]);
    // The public list names only public routes the app serves: nothing on it is left over or guarded after all.
    const served = new Map(t.app.routes.map((r) => [`${r.method} ${r.url}`, r]));
    expect(PUBLIC_ROUTES.filter((k) => !served.has(k) || isAuthorisedRoute(served.get(k)!.handler))).toEqual([]);
  });

  it('a route registered without route() is caught, one registered with it is not', async () => {
    const app = await buildApp({ db: t.db, config: { tokenLifetimeSeconds: 3600, staticDir: undefined } });
    try {
      app.get('/api/throwaway', { config: { access: 'any' } }, async () => ({ ok: true }));
      route(app, {
        method: 'GET',
        url: '/api/throwaway_wrapped',
        roles: ['admin'],
        schema: {},
        handler: async () => ({ ok: true }),
      });
      await app.ready();
      expect(unguarded(app)).toEqual(['GET /api/throwaway']);
    } finally {
      await app.close();
    }
  });

  it('every row states every principal’s outcome, the staff and link columns too', () => {
    const incomplete = matrix
      .filter((r) => PRINCIPALS.some((p) => r.expect[p] === undefined))
      .map((r) => `${r.method} ${r.url}`);
    expect(incomplete).toEqual([]);
  });

  it('every route of a record staff may own states what a staff member gets on their own record', () => {
    const staffScoped = new Set(declarations.filter((d) => d.staffScope).map((d) => d.name));
    const missing = matrix
      .filter((r) => staffScoped.has(/^\/api\/(\w+)\/:id/.exec(r.url)?.[1] ?? '') && r.staffOwn === undefined)
      .map((r) => `${r.method} ${r.url}`);
    expect(staffScoped.size).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });
});

describe('every row, for every principal', () => {
  it.each(matrix.map((r) => [`${r.method} ${r.url}`, r] as const))('%s', async (_name, r) => {
    const failures: string[] = [];
    // A row's records are its own: another row may have changed what this one's refused principals left.
    spare.clear();
    handedOut = [];
    for (const p of PRINCIPALS) {
      const statuses: number[] = [];
      // Signing out ends the session: that row signs in afresh.
      const token = r.url === '/api/logout' && p !== 'anonymous' && p !== 'link' ? await signInAgain(p) : tokens[p];
      const req = await requestFor(r, p);
      const res = await run(req, token);
      statuses.push(res.statusCode);
      if (res.statusCode >= 500 || !matches(res.statusCode, r.expect[p]))
        failures.push(
          `${p}: ${req.method} ${req.url} → ${res.statusCode}, expected ${r.expect[p]} (${res.body.slice(0, 160)})`,
        );
      // Refused, it is refused whatever was sent: authorization comes before validation.
      if (REFUSALS.includes(r.expect[p]) && !ANSWERS_404.has(`${r.method} ${r.url}`)) {
        const bad = invalidOf(req);
        const again = await run(bad, token);
        statuses.push(again.statusCode);
        if (again.statusCode !== r.expect[p])
          failures.push(
            `${p}, invalid input: ${bad.method} ${String(bad.url).slice(0, 80)} → ${again.statusCode}, expected ${r.expect[p]} (${again.body.slice(0, 160)})`,
          );
      }
      settle(statuses);
    }
    expect(failures).toEqual([]);
  });
});

describe("agency B's records do not exist for agency A's admin", () => {
  // A test per row, as the matrix's own: one test for all of them (about 300 requests) outlasted the 30 s watchdog on
  // PostgreSQL with the 2 cores shared thirty ways. The rows run in order between the snapshot and its comparison.
  const tables: Record<string, string> = { audit_entries: 'audit_log' };
  const snapshot = async () => {
    const out: Record<string, unknown> = {};
    for (const [resource, id] of Object.entries(sharedB)) {
      if (resource === 'file') continue;
      out[resource] = await t.db.query(`select * from ${tables[resource] ?? resource} where id = $1`, [id]);
    }
    return JSON.stringify(out);
  };
  let before: string;
  // A collection action (generating timesheets) names no record: nothing of agency B's to find.
  const rows = matrix.filter(
    (r) => r.url.includes(':id') || (/\/actions\//.test(r.url) && !r.url.endsWith('/actions/generate')),
  );
  it("agency B's records as they stand before agency A's admin asks for them", async () => {
    expect(rows.length).toBeGreaterThan(40);
    before = await snapshot();
  });
  it.each(rows.map((r) => [`${r.method} ${r.url}`, r] as const))(
    "%s answers 404 for agency B's record (403 where the admin is not granted the route)",
    async (_name, r) => {
      const failures: string[] = [];
      const req = await requestFor(r, 'admin', true);
      const res = await run(req, tokens.admin);
      // A route the admin is not granted at all refuses before looking (403); every other one does not find it.
      const expected = r.expect.admin === 403 ? 403 : 404;
      if (res.statusCode !== expected)
        failures.push(`${req.method} ${req.url} → ${res.statusCode}, expected ${expected} (${res.body.slice(0, 160)})`);
      // With nothing valid sent, agency B's record is still not found (never 422: issue 30.17).
      const bad = invalidOf(req);
      const again = await run(bad, tokens.admin);
      if (again.statusCode !== expected)
        failures.push(
          `invalid input: ${bad.method} ${String(bad.url).slice(0, 80)} → ${again.statusCode}, expected ${expected} (${again.body.slice(0, 160)})`,
        );
      expect(failures).toEqual([]);
    },
  );
  it("changed none of agency B's records, and agency B still sees its own", async () => {
    expect(await snapshot()).toBe(before);
    for (const resource of ['clients', 'sites', 'candidates', 'candidate_documents', 'availability']) {
      expect((await call(t.app, setupB, 'GET', `/api/${resource}/${sharedB[resource]}`)).statusCode, resource).toBe(
        200,
      );
    }
  });
});

describe('the staff column on their own rows', () => {
  it('a staff member reaches their own record where their role may (403 where it may not), and lists only their own', async () => {
    const rows = matrix.filter((r) => r.staffOwn !== undefined);
    expect(rows.length).toBeGreaterThan(10);
    const failures: string[] = [];
    for (const r of rows) {
      const resource = /^\/api\/(\w+)/.exec(r.url)![1];
      const own = ownedByStaff[resource];
      if (!own) {
        failures.push(`${r.method} ${r.url}: no record of the staff member's own (ctx.ownedByStaff.${resource})`);
        continue;
      }
      // The row's own request with the staff member's record in it (an action's or a delete's, on it directly).
      const action = /\/actions\/(\w+)$/.exec(r.url)?.[1];
      const req: Req =
        action || r.method === 'DELETE'
          ? { method: r.method, url: r.url, payload: action ? inputOf(resource, action) : { reason: 'Authz test' } }
          : await requestFor(r, 'staff');
      const url = String(req.url).replace(/^\/api\/(\w+)\/(\d+|:id)/, `/api/${resource}/${own}`);
      const res = await run({ ...req, url }, tokens.staff);
      if (res.statusCode >= 500 || !matches(res.statusCode, r.staffOwn!))
        failures.push(`${req.method} ${url} → ${res.statusCode}, expected ${r.staffOwn} (${res.body.slice(0, 160)})`);
    }
    expect(failures).toEqual([]);
    // The lists staff may read hold their own rows and nobody else's (scope 'agency': every row of their agency).
    for (const resource of Object.keys(ownedByStaff)) {
      const decl = declarationByName.get(resource)!;
      if (!decl.access.staff?.includes('list')) continue;
      const listed = (await call(t.app, tokens.staff, 'GET', `/api/${resource}?per_page=100`)).json().data as {
        id: number;
      }[];
      // A scope through a reference ('payslip_id.candidate_id'): the rows whose referenced record is theirs.
      const [via, field] = decl.staffScope!.includes('.') ? decl.staffScope!.split('.') : [null, decl.staffScope];
      const target = via && declarationByName.get(decl.fields.find((f) => f.source === via)!.reference!)!.table;
      const mineSql = `${field} = (select candidate_id from users where lower(email) = $1)`;
      const own =
        decl.staffScope === 'agency'
          ? 'merchant_id = (select merchant_id from users where lower(email) = $1)'
          : via
            ? `${via} in (select id from ${target} where ${mineSql})`
            : mineSql;
      const theirs = await t.db.query<{ id: number }>(`select id from ${decl.table} where ${own}`, [DEMO.staff.email]);
      const mine = new Set(theirs.map((x) => x.id));
      expect(listed.map((x) => x.id)).toContain(ownedByStaff[resource]);
      expect(listed.filter((x) => !mine.has(x.id))).toEqual([]);
    }
  });
});

describe('the link column through the engine', () => {
  it('a link runs no action but its own, of any resource: every other answers 403 and leaves it usable', async () => {
    const wrong: string[] = [];
    const names = new Set(declarations.flatMap((d) => (d.actions ?? []).map((a) => a.name)));
    names.delete('close');
    for (const name of [...names, 'not_an_action']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/capability/${tokens.link}/actions/${name}`,
        payload: {},
      });
      if (res.statusCode !== 403) wrong.push(`${name}: ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
    // Its holder still reads its one record: the shift it was sent for.
    const view = await t.app.inject({ method: 'GET', url: `/api/capability/${tokens.link}` });
    expect(view.statusCode).toBe(200);
    expect(view.json()).toMatchObject({ resource: 'shifts', action: { name: 'close' } });
  });
});
