import { http, HttpResponse, type DefaultBodyType } from 'msw';
import { FILE_LIMITS, FILE_MIMES, FILE_TYPE_MESSAGES, sniffMime, type FileKind } from '../../../core/engine/files';
import { Session, SignedIn } from '../../../core/contracts/auth';
import { Uploaded } from '../../../core/contracts/files';
import { Said } from '../../../core/contracts/common';
import { EngineList, EngineOne } from '../../../core/contracts/records';
import { answer } from './contract';

/**
 * A small in-memory fake of the API contract (issue 2, "API conventions"), so the providers are tested
 * against the same shapes the server answers:
 *   POST /api/{admin,client}_login  { email, password }
 *                                   -> { token, token_expiration, login_type, merchant_id, user, client_id? }
 *   GET  /api/{admin,client}_login  -> the signed-in user (403 for the other panel, 401 without a valid token)
 *   POST /api/logout                -> revokes the token
 * GET  /api/{resource}?page&per_page&sort&order&<filters> -> { data, total_count, total_pages, current_page, per_page,
 * references }
 *   GET/PUT/DELETE /api/{resource}/{id} -> { data };  POST /api/{resource} -> 201 { data }
 *   bad input -> 422 { message, errors: { field } };  unknown id -> 404 { message }
 * Its answers are checked against the API's contracts (core/contracts/, through ./contract).
 */

export interface FakeUser {
  id: number;
  kind: 'admin' | 'client';
  name: string;
  email: string;
  password: string;
  role: string;
  merchant_id: number;
  client_id?: number;
}

export const USERS: FakeUser[] = [
  {
    id: 1,
    kind: 'admin',
    name: 'Alex Morgan',
    email: 'admin@demo.test',
    password: 'demo-admin',
    role: 'admin',
    merchant_id: 1,
  },
  {
    id: 2,
    kind: 'client',
    name: 'Helen Carter',
    email: 'client@demo.test',
    password: 'demo-client',
    role: 'manager',
    merchant_id: 1,
    client_id: 7,
  },
];

export const WRONG_CREDENTIALS = 'The e-mail address or password is incorrect.';
export const EXPIRED = 'Your session has expired. Please sign in again.';

export interface SeenRequest {
  method: string;
  url: URL;
  authorization: string | null;
  body: unknown;
}

type Rec = { id: number; [k: string]: unknown };

/** Mutable state of the fake; `resetFake()` (called by each test file's beforeEach) restores it. */
export const fake = {
  sessions: new Map<string, { user: FakeUser; expires: number }>(),
  requests: [] as SeenRequest[],
  tokenLifetimeMs: 60 * 60 * 1000,
  seq: 0,
  records: new Map<string, Rec[]>(),
  /** The file store: POST /api/files -> 201 { data: { id, name, mime, size } }; GET /api/files/{id} -> the bytes. */
  files: new Map<string, { bytes: Uint8Array; name: string; mime: string; kind: FileKind }>(),
};

export function resetFake() {
  fake.sessions.clear();
  fake.requests.length = 0;
  fake.tokenLifetimeMs = 60 * 60 * 1000;
  fake.seq = 0;
  fake.files.clear();
  fake.records = new Map([
    [
      'clients',
      Array.from({ length: 30 }, (_, i) => ({
        id: i + 1,
        name: `Client ${String(i + 1).padStart(2, '0')}`,
        status: i % 3 ? 'active' : 'inactive',
      })),
    ],
  ]);
}
resetFake();

const json = (body: DefaultBodyType, status = 200) => HttpResponse.json(body as any, { status });
const error = (status: number, message: string, errors?: Record<string, string>) =>
  json({ message, ...(errors ? { errors } : {}) }, status);

async function record(request: Request): Promise<SeenRequest> {
  let body: unknown = undefined;
  const text = await request.clone().text();
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  const seen = {
    method: request.method,
    url: new URL(request.url),
    authorization: request.headers.get('authorization'),
    body,
  };
  fake.requests.push(seen);
  return seen;
}

function signedIn(seen: SeenRequest) {
  const token = /^Bearer (\S+)$/.exec(seen.authorization ?? '')?.[1];
  const s = token ? fake.sessions.get(token) : undefined;
  if (!s || s.expires <= Date.now()) return undefined;
  return { token: token!, user: s.user };
}

function describe(u: FakeUser) {
  return {
    login_type: u.kind,
    merchant_id: u.merchant_id,
    ...(u.kind === 'client' ? { client_id: u.client_id } : {}),
    user: {
      id: u.id,
      name: u.name,
      email: u.email,
      role: u.role,
      ...(u.kind === 'client' ? { client_id: u.client_id } : {}),
    },
  };
}

const loginHandlers = (['admin', 'client'] as const).flatMap((kind) => [
  http.post(`*/api/${kind}_login`, async ({ request }) => {
    const seen = await record(request);
    const body = seen.body as { email?: unknown; password?: unknown } | undefined;
    const errors: Record<string, string> = {};
    if (typeof body?.email !== 'string' || !body.email) errors.email = 'Required';
    if (typeof body?.password !== 'string' || !body.password) errors.password = 'Required';
    if (Object.keys(errors).length) return error(422, 'Some fields need your attention.', errors);
    const user = USERS.find((u) => u.kind === kind && u.email === String(body!.email).toLowerCase());
    if (!user || user.password !== body!.password) return error(401, WRONG_CREDENTIALS);
    const token = `tok-${user.id}-${++fake.seq}`;
    const expires = Date.now() + fake.tokenLifetimeMs;
    fake.sessions.set(token, { user, expires });
    return answer(`POST /api/${kind}_login`, SignedIn, {
      token,
      token_expiration: new Date(expires).toISOString(),
      ...describe(user),
    });
  }),
  http.get(`*/api/${kind}_login`, async ({ request }) => {
    const s = signedIn(await record(request));
    if (!s) return error(401, EXPIRED);
    if (s.user.kind !== kind) return error(403, 'You do not have permission to do that.');
    return answer(`GET /api/${kind}_login`, Session, describe(s.user));
  }),
]);

const fileHandlers = [
  http.post('*/api/files', async ({ request }) => {
    const kind = new URL(request.url).searchParams.get('kind') as FileKind;
    const bytes = new Uint8Array(await request.clone().arrayBuffer());
    const seen = await record(request);
    if (!signedIn(seen)) return error(401, EXPIRED);
    if (kind !== 'image' && kind !== 'document')
      return error(422, 'Some fields need your attention.', { kind: 'Invalid value' });
    if (bytes.length === 0) return error(422, 'The file is empty.');
    if (bytes.length > FILE_LIMITS[kind]) return error(413, 'The file is too large.');
    const mime = sniffMime(bytes);
    if (!mime || !FILE_MIMES[kind].includes(mime)) return error(415, FILE_TYPE_MESSAGES[kind]);
    const id = `00000000-0000-4000-8000-${String(++fake.seq).padStart(12, '0')}`;
    const name = decodeURIComponent(request.headers.get('x-file-name') ?? 'file');
    fake.files.set(id, { bytes, name, mime, kind });
    return answer('POST /api/files', Uploaded, { data: { id, name, mime, size: bytes.length } }, 201);
  }),
  http.get('*/api/files/:id', async ({ request, params }) => {
    if (!signedIn(await record(request))) return error(401, EXPIRED);
    const file = fake.files.get(String(params.id));
    if (!file) return error(404, 'File not found.');
    return new HttpResponse(file.bytes, {
      headers: {
        'content-type': file.mime,
        'content-disposition': `inline; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      },
    });
  }),
];

export const handlers = [
  ...loginHandlers,
  ...fileHandlers,

  http.post('*/api/logout', async ({ request }) => {
    const s = signedIn(await record(request));
    if (!s) return error(401, EXPIRED);
    fake.sessions.delete(s.token);
    return answer('POST /api/logout', Said, { message: 'Signed out.' });
  }),

  http.get('*/api/:resource', async ({ request, params }) => {
    const seen = await record(request);
    if (!signedIn(seen)) return error(401, EXPIRED);
    const rows = fake.records.get(String(params.resource));
    if (!rows) return error(404, 'Not found.');
    const q = seen.url.searchParams;
    const page = Number(q.get('page') ?? 1);
    const perPage = Number(q.get('per_page') ?? 25);
    let out = [...rows];
    const ids = q.get('ids');
    if (ids) out = out.filter((r) => ids.split(',').includes(String(r.id)));
    for (const [k, v] of q) {
      if (['page', 'per_page', 'sort', 'order', 'ids'].includes(k)) continue;
      out = out.filter((r) => String(r[k]) === v);
    }
    const sort = q.get('sort');
    if (sort) {
      const dir = q.get('order') === 'desc' ? -1 : 1;
      out.sort((a, b) => (String(a[sort]) < String(b[sort]) ? -dir : String(a[sort]) > String(b[sort]) ? dir : 0));
    }
    const body = {
      data: out.slice((page - 1) * perPage, page * perPage),
      total_count: out.length,
      total_pages: Math.ceil(out.length / perPage),
      current_page: page,
      per_page: perPage,
      references: {},
    };
    return answer(`GET /api/${params.resource}`, EngineList, body);
  }),

  http.get('*/api/:resource/:id', async ({ request, params }) => {
    const seen = await record(request);
    if (!signedIn(seen)) return error(401, EXPIRED);
    const row = fake.records.get(String(params.resource))?.find((r) => String(r.id) === params.id);
    return row ? answer(`GET /api/${params.resource}/:id`, EngineOne, { data: row }) : error(404, 'Record not found.');
  }),

  http.post('*/api/:resource', async ({ request, params }) => {
    const seen = await record(request);
    if (!signedIn(seen)) return error(401, EXPIRED);
    const rows = fake.records.get(String(params.resource));
    if (!rows) return error(404, 'Not found.');
    const body = (seen.body ?? {}) as Record<string, unknown>;
    if (typeof body.name !== 'string' || !body.name.trim())
      return error(422, 'Some fields need your attention.', { name: 'Required' });
    const row = { ...body, id: Math.max(0, ...rows.map((r) => r.id)) + 1 };
    rows.push(row);
    return answer(`POST /api/${params.resource}`, EngineOne, { data: row }, 201);
  }),

  http.put('*/api/:resource/:id', async ({ request, params }) => {
    const seen = await record(request);
    if (!signedIn(seen)) return error(401, EXPIRED);
    const row = fake.records.get(String(params.resource))?.find((r) => String(r.id) === params.id);
    if (!row) return error(404, 'Record not found.');
    const body = (seen.body ?? {}) as Record<string, unknown>;
    if ('name' in body && (typeof body.name !== 'string' || !body.name.trim()))
      return error(422, 'Some fields need your attention.', { name: 'Required' });
    Object.assign(row, body, { id: row.id });
    return answer(`PUT /api/${params.resource}/:id`, EngineOne, { data: row });
  }),

  http.delete('*/api/:resource/:id', async ({ request, params }) => {
    const seen = await record(request);
    if (!signedIn(seen)) return error(401, EXPIRED);
    const rows = fake.records.get(String(params.resource));
    const i = rows?.findIndex((r) => String(r.id) === params.id) ?? -1;
    if (!rows || i < 0) return error(404, 'Record not found.');
    const [row] = rows.splice(i, 1);
    return answer(`DELETE /api/${params.resource}/:id`, EngineOne, { data: row });
  }),
];
