/**
 * The two calls the Login page makes, as tiny fetches: importing the authProvider would pull react-admin
 * (src/providers/http.ts uses its HttpError) into the first JavaScript the browser loads.
 * The answer is stored with session.ts exactly as authProvider.login stores it.
 */
import { getToken, saveSession, type LoginResponse, type LoginType } from '../providers/session';

export class LoginError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export async function signIn(loginType: LoginType, email: string, password: string): Promise<LoginResponse> {
  let res: Response;
  try {
    res = await fetch(`/api/${loginType === 'client' ? 'client' : 'admin'}_login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ email: email.trim(), password }),
    });
  } catch {
    throw new LoginError('', 0);
  }
  let body: any = undefined;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  if (!res.ok) throw new LoginError(typeof body?.message === 'string' ? body.message : '', res.status);
  saveSession(body as LoginResponse);
  return body as LoginResponse;
}

/** Revokes the stored token on the server; failures are ignored (the session is cleared locally anyway). */
export async function revokeToken(): Promise<void> {
  const token = getToken();
  if (!token) return;
  try {
    await fetch('/api/logout', { method: 'POST', headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  } catch {
    /* ignored */
  }
}
