import { getToken } from './session';
import { LIST_LIMITS } from '../../core/engine/types';

export const API = '/api';

/** A non-2xx answer: the server's message, its status and its body (field errors live in body.errors). */
export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: any,
  ) {
    super(message);
  }
}

/**
 * Calls the API with the bearer token and JSON; free of react-admin so the Login page can use it in the first,
 * small bundle. A network failure rejects as fetch does; a non-2xx answer as an ApiFailure.
 */
export async function request<T = any>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const headers = authorised(init.headers);
  headers.set('accept', 'application/json');
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  }
  const res = await fetch(`${API}${path}`, { ...init, headers, body });
  const text = await res.text();
  let data: any = undefined;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!res.ok) throw failureOf(res, data);
  return data as T;
}

/** A list answer of the API: a page of records, the total, and the records they reference by resource. */
export interface ListPage<T> {
  data: T[];
  total_count: number;
  references?: Record<string, { id: number; name?: string; [field: string]: unknown }[]>;
}

/**
 * Records `start` to `start + count` of a list, read in consecutive pages of the API's largest size, with the records
 * every page brought along (each once); `path` is the list's path with its filters and sort, without paging. The
 * dataProvider's pages larger than the API serves (the CSV export) and `requestAll` both read through it.
 */
export async function requestRange<T>(
  path: string,
  start: number,
  count: number,
  init: RequestInit = {},
): Promise<ListPage<T>> {
  const per = LIST_LIMITS.maxPerPage;
  const all: ListPage<T> = { data: [], total_count: 0, references: {} };
  const joiner = path.includes('?') ? '&' : '?';
  for (let page = Math.floor(start / per) + 1; all.data.length < count; page++) {
    const r = await request<ListPage<T>>(`${path}${joiner}per_page=${per}&page=${page}`, init);
    const skip = all.data.length === 0 ? start % per : 0;
    all.data.push(...r.data.slice(skip, skip + count - all.data.length));
    all.total_count = r.total_count;
    for (const [resource, rows] of Object.entries(r.references ?? {})) {
      const known = (all.references![resource] ??= []);
      const ids = new Set(known.map((k) => k.id));
      known.push(...rows.filter((row) => !ids.has(row.id)));
    }
    if (r.data.length < per) break;
  }
  return all;
}

/** Every record of a list (a timesheet's lines under review: all of them, not the first page). */
export const requestAll = <T>(path: string) => requestRange<T>(path, 0, Infinity);

/** A file the API makes or keeps (an export, a PDF, an upload): its bytes and the name the server gives it. */
export async function requestFile(path: string): Promise<{ blob: Blob; name: string; headers: Headers }> {
  const res = await fetch(`${API}${path}`, { headers: authorised() });
  if (!res.ok) throw failureOf(res, await res.json().catch(() => undefined));
  return { blob: await res.blob(), name: fileNameOf(res.headers.get('content-disposition')), headers: res.headers };
}

function authorised(init?: HeadersInit): Headers {
  const headers = new Headers(init);
  const token = getToken();
  if (token) headers.set('authorization', `Bearer ${token}`);
  return headers;
}

function failureOf(res: Response, body: any): ApiFailure {
  const message =
    body?.message || (res.status >= 500 ? 'An unexpected error occurred. Please try again later.' : res.statusText);
  return new ApiFailure(message, res.status, body ?? {});
}

/** The file name of a Content-Disposition header: RFC 6266's `filename*` (UTF-8) first, then plain `filename`. */
export function fileNameOf(disposition: string | null): string {
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '')?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // A malformed encoding falls back to the plain name.
    }
  }
  return /filename="([^"]+)"/i.exec(disposition ?? '')?.[1] ?? 'file';
}
