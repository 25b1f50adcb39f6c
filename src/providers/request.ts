import { getToken } from './session';

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
    const message =
      data?.message || (res.status >= 500 ? 'An unexpected error occurred. Please try again later.' : res.statusText);
    throw new ApiFailure(message, res.status, data ?? {});
  }
  return data as T;
}
