import type { DataProvider, GetListParams } from 'react-admin';
import { LIST_LIMITS } from '../../core/engine/types';
import { api, toHttpError } from './http';
import { requestRange } from './request';

/** Turns react-admin's list parameters into the API's query string: page, per_page, sort, order and filters. */
export function listQuery(params: Partial<GetListParams>): string {
  const q = new URLSearchParams();
  if (params.pagination) {
    q.set('page', String(params.pagination.page));
    q.set('per_page', String(params.pagination.perPage));
  }
  if (params.sort?.field) {
    q.set('sort', params.sort.field);
    q.set('order', params.sort.order === 'DESC' ? 'desc' : 'asc');
  }
  // The CSV export says so (ExportButton's meta), so the API checks the 'export' permission.
  if (params.meta?.export) q.set('export', '1');
  // A list screen names the fields its rows need (listFieldsOf); the API sends every field otherwise.
  if (Array.isArray(params.meta?.fields)) q.set('fields', params.meta.fields.join(','));
  for (const [key, value] of Object.entries(params.filter ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    q.set(
      key,
      Array.isArray(value) ? value.join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value),
    );
  }
  return q.toString();
}

interface ListAnswer {
  data: any[];
  total_count: number;
  total_pages: number;
  current_page: number;
  /** The records the page refers to, by resource (engine lists): what the screen's reference fields show. */
  references?: Record<string, any[]>;
  /** The declaration's listTotals over every matching row (engine lists that declare them). */
  totals?: Record<string, number>;
}

/**
 * Records a list answer brought along for its reference fields, kept briefly so that the getMany calls the
 * page's ReferenceFields make right after it (react-admin fetches a reference when its query is stale, which
 * it is at once) are answered here instead of by a second round trip.
 */
const PREFETCH_MS = 5000;
const prefetched = new Map<string, { record: any; until: number }>();
const prefetchKey = (resource: string, id: unknown) => `${resource}\u0000${String(id)}`;

function keepReferences(references: ListAnswer['references']) {
  if (!references) return undefined;
  const until = Date.now() + PREFETCH_MS;
  for (const [resource, records] of Object.entries(references))
    for (const record of records) prefetched.set(prefetchKey(resource, record.id), { record, until });
  // react-admin puts meta.prefetched into its query cache (getOne of each record), so the first render already has the
  // labels.
  return { prefetched: references };
}

/** All the ids asked for, from the records a list brought along moments ago; undefined when any is missing. */
function fromPrefetched(resource: string, ids: unknown[]) {
  const now = Date.now();
  const records = ids.map((id) => prefetched.get(prefetchKey(resource, id)));
  if (records.some((r) => !r || r.until < now)) return undefined;
  return records.map((r) => r!.record);
}

/** Forgets every record lists brought along: on sign-out, the next user of the browser must not be shown them. */
export function forgetPrefetched() {
  prefetched.clear();
}

/** A write makes what a list brought along of that resource stale. */
function forget(resource: string) {
  for (const key of prefetched.keys()) if (key.startsWith(prefetchKey(resource, ''))) prefetched.delete(key);
}

const API_MAX_PER_PAGE = LIST_LIMITS.maxPerPage;

/** A page larger than the API serves (the CSV export asks for up to 10,000 rows), gathered from pages of 100. */
async function getLargePage(resource: string, params: GetListParams) {
  const { page, perPage } = params.pagination!;
  try {
    const r = await requestRange(
      `/${resource}?${listQuery({ ...params, pagination: undefined })}`,
      (page - 1) * perPage,
      perPage,
      { signal: params.signal },
    );
    return { data: r.data as any[], total: r.total_count, meta: keepReferences(r.references) };
  } catch (e) {
    throw toHttpError(e);
  }
}

/** What runAction sends: one record (id) or several (ids, all or nothing), the action's name and its input. */
export interface RunActionParams {
  id?: string | number;
  ids?: (string | number)[];
  action: string;
  input?: Record<string, unknown>;
}

/**
 * Speaks the API's conventions: resource name = path under /api, list answers `{ data, total_count }`, records
 * `{ data }`.
 */
export const dataProvider: DataProvider & {
  runAction(resource: string, params: RunActionParams): Promise<{ data: any }>;
} = {
  async getList(resource, params) {
    if ((params.pagination?.perPage ?? 0) > API_MAX_PER_PAGE) return getLargePage(resource, params);
    const r = await api<ListAnswer>(`/${resource}?${listQuery(params)}`, { signal: params.signal });
    return { data: r.data, total: r.total_count, meta: { ...keepReferences(r.references), totals: r.totals } };
  },
  async getOne(resource, params) {
    const r = await api(`/${resource}/${encodeURIComponent(String(params.id))}`, { signal: params.signal });
    return { data: r.data };
  },
  async getMany(resource, params) {
    if (params.ids.length === 0) return { data: [] };
    const known = fromPrefetched(resource, params.ids);
    if (known) return { data: known };
    const r = await api<ListAnswer>(
      `/${resource}?${listQuery({ filter: { ids: params.ids }, pagination: { page: 1, perPage: params.ids.length } })}`,
      { signal: params.signal },
    );
    return { data: r.data };
  },
  async getManyReference(resource, params) {
    const r = await api<ListAnswer>(
      `/${resource}?${listQuery({ ...params, filter: { ...params.filter, [params.target]: params.id } })}`,
      { signal: params.signal },
    );
    return { data: r.data, total: r.total_count, meta: keepReferences(r.references) };
  },
  async create(resource, params) {
    forget(resource);
    const r = await api(`/${resource}`, { method: 'POST', json: params.data });
    return { data: r.data };
  },
  async update(resource, params) {
    forget(resource);
    const r = await api(`/${resource}/${encodeURIComponent(String(params.id))}`, { method: 'PUT', json: params.data });
    return { data: r.data };
  },
  async updateMany(resource, params) {
    forget(resource);
    await Promise.all(
      params.ids.map((id) =>
        api(`/${resource}/${encodeURIComponent(String(id))}`, { method: 'PUT', json: params.data }),
      ),
    );
    return { data: params.ids };
  },
  async delete(resource, params) {
    forget(resource);
    const r = await api(`/${resource}/${encodeURIComponent(String(params.id))}`, { method: 'DELETE' });
    return { data: r?.data ?? params.previousData };
  },
  async deleteMany(resource, params) {
    forget(resource);
    await Promise.all(
      params.ids.map((id) => api(`/${resource}/${encodeURIComponent(String(id))}`, { method: 'DELETE' })),
    );
    return { data: params.ids };
  },
  /**
   * A declared action: POST /api/{resource}/{id}/actions/{action} with the input as body → { data: record }, or,
   * with ids, POST /api/{resource}/actions/{action} with { ids, ...input } → { data: records }.
   */
  async runAction(resource, { id, ids, action, input = {} }: RunActionParams) {
    forget(resource);
    const name = encodeURIComponent(action);
    if (ids) return api(`/${resource}/actions/${name}`, { method: 'POST', json: { ...input, ids: ids.map(Number) } });
    return api(`/${resource}/${encodeURIComponent(String(id))}/actions/${name}`, { method: 'POST', json: input });
  },
};
