import { beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from 'react-admin';
import { authProvider } from '../../../src/providers/authProvider';
import { fake, resetFake, WRONG_CREDENTIALS } from '../msw/handlers';

const admin = { email: 'admin@demo.test', password: 'demo-admin', loginType: 'agency' as const };
const client = { email: 'client@demo.test', password: 'demo-client', loginType: 'client' as const };
const calls = (method: string, path: string) =>
  fake.requests.filter((r) => r.method === method && r.url.pathname === path);

beforeEach(() => resetFake());

describe('authProvider.login', () => {
  it('stores token, tokenExpiration, loginType and merchant_id exactly under the spec keys', async () => {
    await authProvider.login(admin);
    const token = localStorage.getItem('token');
    expect(token).toMatch(/^tok-1-/);
    expect(Date.parse(localStorage.getItem('tokenExpiration')!)).toBeGreaterThan(Date.now());
    expect(localStorage.getItem('tokenExpiration')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(localStorage.getItem('loginType')).toBe('admin');
    expect(localStorage.getItem('merchant_id')).toBe('1');
    const [req] = calls('POST', '/api/admin_login');
    expect(req.body).toEqual({ email: 'admin@demo.test', password: 'demo-admin' });
  });

  it('signs a client user in through POST /api/client_login', async () => {
    await authProvider.login(client);
    expect(calls('POST', '/api/client_login')).toHaveLength(1);
    expect(calls('POST', '/api/admin_login')).toHaveLength(0);
    expect(localStorage.getItem('loginType')).toBe('client');
  });

  it('trims the e-mail before sending it', async () => {
    await authProvider.login({ ...admin, email: '  admin@demo.test ' });
    expect(calls('POST', '/api/admin_login')[0].body).toMatchObject({ email: 'admin@demo.test' });
  });

  it('rejects a wrong password with the server message and stores nothing', async () => {
    const err = await authProvider.login({ ...admin, password: 'nope' }).catch((e) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err.message).toBe(WRONG_CREDENTIALS);
    expect(err.status).toBe(401);
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('loginType')).toBeNull();
  });
});

describe('authProvider.checkAuth', () => {
  it('resolves with an unexpired token', async () => {
    await authProvider.login(admin);
    await expect(authProvider.checkAuth({})).resolves.toBeUndefined();
  });

  it('rejects with redirectTo "/" without a token', async () => {
    await expect(authProvider.checkAuth({})).rejects.toMatchObject({ redirectTo: '/' });
  });

  it('with an expired token clears token, tokenExpiration and loginType and sends to "/"', async () => {
    await authProvider.login(admin);
    localStorage.setItem('tokenExpiration', new Date(Date.now() - 1000).toISOString());
    await expect(authProvider.checkAuth({})).rejects.toMatchObject({ redirectTo: '/' });
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('tokenExpiration')).toBeNull();
    expect(localStorage.getItem('loginType')).toBeNull();
  });

  it('treats an unparseable expiry as expired', async () => {
    await authProvider.login(admin);
    localStorage.setItem('tokenExpiration', 'not a date');
    await expect(authProvider.checkAuth({})).rejects.toMatchObject({ redirectTo: '/' });
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe('authProvider.logout', () => {
  it('calls POST /api/logout with the bearer token and clears token and tokenExpiration', async () => {
    await authProvider.login(admin);
    const token = localStorage.getItem('token')!;
    await authProvider.logout({});
    const [req] = calls('POST', '/api/logout');
    expect(req.authorization).toBe(`Bearer ${token}`);
    expect(fake.sessions.has(token)).toBe(false); // revoked on the server
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('tokenExpiration')).toBeNull();
  });

  it('returns to "/" and does not call the server when signed out already', async () => {
    await expect(authProvider.logout({})).resolves.toBe('/');
    expect(calls('POST', '/api/logout')).toHaveLength(0);
  });

  it('still clears the browser session when the server call fails', async () => {
    await authProvider.login(admin);
    fake.sessions.clear(); // server already forgot the token: POST /api/logout answers 401
    await authProvider.logout({});
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe('authProvider.checkError', () => {
  it('401 clears the session and redirects to "/"', async () => {
    await authProvider.login(admin);
    await expect(authProvider.checkError(new HttpError('expired', 401))).rejects.toMatchObject({ redirectTo: '/' });
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('tokenExpiration')).toBeNull();
    expect(localStorage.getItem('loginType')).toBeNull();
  });

  it('403 does not sign the user out', async () => {
    await authProvider.login(admin);
    await expect(authProvider.checkError(new HttpError('forbidden', 403))).resolves.toBeUndefined();
    expect(localStorage.getItem('token')).not.toBeNull();
  });

  it('other errors (404, 422, 500) do not sign the user out', async () => {
    await authProvider.login(admin);
    for (const status of [404, 422, 500])
      await expect(authProvider.checkError(new HttpError('x', status))).resolves.toBeUndefined();
    expect(localStorage.getItem('token')).not.toBeNull();
  });
});

describe('authProvider.getIdentity', () => {
  it('answers the signed-in admin from GET /api/admin_login', async () => {
    await authProvider.login(admin);
    const id = await authProvider.getIdentity!();
    expect(id).toMatchObject({
      id: 1,
      fullName: 'Alex Morgan',
      email: 'admin@demo.test',
      role: 'admin',
      loginType: 'agency',
      merchantId: 1,
    });
    expect(calls('GET', '/api/admin_login')).toHaveLength(1);
  });

  it('is fetched once per token', async () => {
    await authProvider.login(admin);
    await authProvider.getIdentity!();
    await authProvider.getIdentity!();
    await authProvider.getPermissions!({});
    expect(calls('GET', '/api/admin_login')).toHaveLength(1);
  });

  it('refreshes when a different user signs in in the same tab (admin, then client)', async () => {
    await authProvider.login(admin);
    expect(await authProvider.getIdentity!()).toMatchObject({ id: 1, loginType: 'agency' });
    await authProvider.logout({});
    await authProvider.login(client);
    const id = await authProvider.getIdentity!();
    expect(id).toMatchObject({ id: 2, fullName: 'Helen Carter', loginType: 'client', clientId: 7 });
    expect(calls('GET', '/api/client_login')).toHaveLength(1);
  });

  it('refreshes when the token changes under it (another tab signed in as someone else)', async () => {
    await authProvider.login(admin);
    expect(await authProvider.getIdentity!()).toMatchObject({ id: 1 });
    // Another tab signs in as the client: localStorage changes, this module was not told.
    const other = await fetch('/api/client_login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: client.email, password: client.password }),
    }).then((r) => r.json());
    localStorage.setItem('token', other.token);
    localStorage.setItem('loginType', 'client');
    expect(await authProvider.getIdentity!()).toMatchObject({ id: 2, loginType: 'client' });
  });

  it('getPermissions answers loginType and role, and null when signed out', async () => {
    expect(await authProvider.getPermissions!({})).toBeNull();
    await authProvider.login(client);
    expect(await authProvider.getPermissions!({})).toEqual({ loginType: 'client', role: 'manager' });
  });
});
