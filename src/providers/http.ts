import { HttpError } from 'react-admin';
import { getToken } from './session';

export const API = '/api';

/** Calls the API with the bearer token; any non-2xx answer becomes an HttpError carrying the server's message and field errors. */
export async function api<T = any>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set('accept', 'application/json');
  const token = getToken();
  if (token) headers.set('authorization', `Bearer ${token}`);
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
  if (!res.ok) {
    const message = data?.message || (res.status >= 500 ? 'An unexpected error occurred. Please try again later.' : res.statusText);
    throw new HttpError(message, res.status, data ?? {});
  }
  return data as T;
}
