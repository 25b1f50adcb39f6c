import { HttpError } from 'react-admin';
import { ApiFailure, request } from './request';

/** react-admin's error for a failed call: its forms read the field errors from body.errors. */
export const toHttpError = (e: unknown) => (e instanceof ApiFailure ? new HttpError(e.message, e.status, e.body) : e);

/**
 * Calls the API with the bearer token; any non-2xx answer becomes an HttpError carrying the server's message and field
 * errors.
 */
export async function api<T = any>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  try {
    return await request<T>(path, init);
  } catch (e) {
    throw toHttpError(e);
  }
}
