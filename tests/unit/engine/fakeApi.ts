import { http, HttpResponse, type DefaultBodyType } from 'msw';
import { beforeEach } from 'vitest';
import { waitFor } from '@testing-library/react';
import { server } from '../msw/server';
import { answer } from '../msw/contract';
import { EngineList, EngineOne, LIST_CONTROLS, listParams } from '../../../core/contracts/records';
import { declarations } from '../../../core/resources/declarations';

/**
 * A tiny in-memory API for the engine's screens, following the foundation's conventions:
 * GET /api/{name}?page&per_page&sort&order&<filters>&q&fields -> { data, total_count, total_pages, current_page,
 * per_page, references }
 *     (a declared resource's list refuses a filter its declaration does not offer with 400, as the server does)
 *   GET/PUT/DELETE /api/{name}/{id} -> { data };  POST /api/{name} -> 201 { data }
 *   bad input -> 422 { message, errors: { field: text } };  unknown id -> 404 { message }
 * Installed per test with `server.use` (so it takes precedence over tests/unit/msw handlers and is reset after
 * each test). No sign-in needed. `api.validate` lets a test answer 422 for a resource. Its answers are checked
 * against the API's contracts (core/contracts/, through ../msw/contract).
 */
export type Rec = { id: number; [k: string]: unknown };
export interface Seen {
  method: string;
  url: URL;
  body: any;
}

export const api = {
  records: new Map<string, Rec[]>(),
  requests: [] as Seen[],
  /** Field errors for a write, or undefined to accept it. */
  validate: undefined as
    | undefined
    | ((resource: string, body: Record<string, unknown>, method: 'POST' | 'PUT') => Record<string, string> | undefined),
};

const json = (body: DefaultBodyType, status = 200) => HttpResponse.json(body as any, { status });
const fail = (status: number, message: string, errors?: Record<string, string>) =>
  json({ message, ...(errors ? { errors } : {}) }, status);

async function seen(request: Request): Promise<Seen> {
  const text = await request.clone().text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  const s = { method: request.method, url: new URL(request.url), body };
  api.requests.push(s);
  return s;
}

// export=1 marks a list request as the CSV export (the API checks the 'export' permission); it filters nothing.
const CONTROL: readonly string[] = LIST_CONTROLS;
const byName = new Map(declarations.map((d) => [d.name, d]));

export const apiHandlers = [
  http.get('*/api/:resource', async ({ request, params }) => {
    const s = await seen(request);
    const rows = api.records.get(String(params.resource));
    if (!rows) return fail(404, 'Not found.');
    const q = s.url.searchParams;
    const decl = byName.get(String(params.resource));
    const accepted = decl && listParams(decl);
    for (const k of q.keys())
      if (accepted && !accepted.has(k)) return fail(400, `Unknown filter ${k}.`, { [k]: 'Unknown filter' });
    const page = Number(q.get('page') ?? 1);
    const perPage = Number(q.get('per_page') ?? 25);
    let out = [...rows];
    const ids = q.get('ids');
    if (ids) out = out.filter((r) => ids.split(',').includes(String(r.id)));
    const text = q.get('q')?.toLowerCase();
    if (text)
      out = out.filter((r) => Object.values(r).some((v) => typeof v === 'string' && v.toLowerCase().includes(text)));
    for (const [k, v] of q) if (!CONTROL.includes(k)) out = out.filter((r) => String(r[k]) === v);
    // A tab is its declared filter, as the server applies it.
    const tab = decl?.tabs?.find((t) => t.id === q.get('tab'));
    for (const [k, v] of Object.entries(tab?.filter ?? {}))
      if (!q.has(k)) out = out.filter((r) => String(r[k]) === String(v));
    const sort = q.get('sort');
    if (sort) {
      const dir = q.get('order') === 'desc' ? -1 : 1;
      out.sort((a, b) => {
        const x = a[sort] as any;
        const y = b[sort] as any;
        return x < y ? -dir : x > y ? dir : 0;
      });
    }
    // The fields a list screen asked for (?fields=), and the id, as the server answers them.
    const fields = q.get('fields')?.split(',');
    const only = (r: Rec) =>
      fields ? Object.fromEntries(Object.entries(r).filter(([k]) => k === 'id' || fields.includes(k))) : r;
    const body = {
      data: out.slice((page - 1) * perPage, page * perPage).map(only),
      total_count: out.length,
      total_pages: Math.ceil(out.length / perPage),
      current_page: page,
      per_page: perPage,
      references: {},
    };
    return answer(`GET /api/${params.resource}`, EngineList, body);
  }),
  http.get('*/api/:resource/:id', async ({ request, params }) => {
    await seen(request);
    const row = api.records.get(String(params.resource))?.find((r) => String(r.id) === params.id);
    return row ? answer(`GET /api/${params.resource}/:id`, EngineOne, { data: row }) : fail(404, 'Record not found.');
  }),
  http.post('*/api/:resource', async ({ request, params }) => {
    const s = await seen(request);
    const rows = api.records.get(String(params.resource));
    if (!rows) return fail(404, 'Not found.');
    const body = (s.body ?? {}) as Record<string, unknown>;
    const errors = api.validate?.(String(params.resource), body, 'POST');
    if (errors && Object.keys(errors).length) return fail(422, 'Some fields need your attention.', errors);
    const row = { ...body, id: Math.max(0, ...rows.map((r) => r.id)) + 1 };
    rows.push(row);
    return answer(`POST /api/${params.resource}`, EngineOne, { data: row }, 201);
  }),
  http.put('*/api/:resource/:id', async ({ request, params }) => {
    const s = await seen(request);
    const row = api.records.get(String(params.resource))?.find((r) => String(r.id) === params.id);
    if (!row) return fail(404, 'Record not found.');
    const body = (s.body ?? {}) as Record<string, unknown>;
    const errors = api.validate?.(String(params.resource), body, 'PUT');
    if (errors && Object.keys(errors).length) return fail(422, 'Some fields need your attention.', errors);
    Object.assign(row, body, { id: row.id });
    return answer(`PUT /api/${params.resource}/:id`, EngineOne, { data: row });
  }),
  http.delete('*/api/:resource/:id', async ({ request, params }) => {
    await seen(request);
    const rows = api.records.get(String(params.resource));
    const i = rows?.findIndex((r) => String(r.id) === params.id) ?? -1;
    if (!rows || i < 0) return fail(404, 'Record not found.');
    const [row] = rows.splice(i, 1);
    return answer(`DELETE /api/${params.resource}/:id`, EngineOne, { data: row });
  }),
];

/** Installs the fake API before each test of the calling file, seeded fresh each time. */
export function installFakeApi(seed: () => Record<string, Rec[]>) {
  beforeEach(() => {
    api.records = new Map(Object.entries(seed()));
    api.requests.length = 0;
    api.validate = undefined;
    server.use(...apiHandlers);
  });
}

/** The requests seen for one resource (path /api/{name} or /api/{name}/{id}), optionally of one method. */
export const requestsTo = (resource: string, method?: string) =>
  api.requests.filter(
    (r) =>
      (r.url.pathname === `/api/${resource}` || r.url.pathname.startsWith(`/api/${resource}/`)) &&
      (!method || r.method === method),
  );

export const params = (r: Seen) => Object.fromEntries(r.url.searchParams);

/**
 * The input labelled by a label whose text matches (a fast stand-in for getByLabelText, which is slow over a whole
 * react-admin form in jsdom). Throws when there is none, like getBy*.
 */
export function field(label: RegExp): HTMLElement {
  const l = [...document.querySelectorAll('label')].find((x) => label.test(x.textContent?.trim() ?? ''));
  const el = l && (l.htmlFor ? document.getElementById(l.htmlFor) : l.querySelector('input'));
  if (!el) throw new Error(`No input labelled ${label}`);
  return el;
}
export const findField = (label: RegExp) => waitFor(() => field(label));
export const queryField = (label: RegExp) => {
  try {
    return field(label);
  } catch {
    return null;
  }
};
