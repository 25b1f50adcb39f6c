import { storedLoginType, type PanelLoginType } from '../../core/engine/types';
import { request } from './request';
import { getToken, saveSession, type LoginResponse } from './session';

/**
 * POST {admin|client|staff}_login and store the session under the spec's keys. Used by the Login page, the authProvider
 * and the staff page.
 */
export async function signIn(loginType: PanelLoginType, email: string, password: string): Promise<LoginResponse> {
  const r = await request<LoginResponse>(`/${storedLoginType(loginType)}_login`, {
    method: 'POST',
    json: { email: email.trim(), password },
  });
  saveSession(r);
  return r;
}

/** POST logout for the stored token; failures are ignored (the caller clears the session locally anyway). */
export async function revokeToken(): Promise<void> {
  if (getToken()) await request('/logout', { method: 'POST' }).catch(() => undefined);
}
