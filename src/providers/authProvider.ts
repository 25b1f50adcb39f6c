import type { AuthProvider } from 'react-admin';
import { canAccess } from '../../core/resources/access';
import { loginTypeOfStored, storedLoginType, type PanelLoginType } from '../../core/engine/types';
import { api, toHttpError } from './http';
import {
  clearExpired,
  clearSignedOut,
  getLoginType,
  getToken,
  hasValidSession,
  type LoginResponse,
  type LoginType,
} from './session';
import { revokeToken, signIn } from './signIn';
import { forgetPrefetched } from './dataProvider';

export interface Credentials {
  email: string;
  password: string;
  loginType: PanelLoginType;
}

// Identity is fetched once per token: a different user signing in, in the same tab, gets a fresh one.
type Me = Omit<LoginResponse, 'token' | 'token_expiration'> & { loginType: LoginType | null };
let identity: { token: string; value: Promise<Me> } | undefined;
function whoAmI() {
  const token = getToken()!;
  if (identity?.token !== token) {
    const value = api<Omit<LoginResponse, 'token' | 'token_expiration'>>(
      `/${storedLoginType(getLoginType() === 'client' ? 'client' : 'agency')}_login`,
    ).then((me) => ({ ...me, loginType: loginTypeOfStored(me.login_type) }));
    identity = { token, value };
    value.catch(() => (identity = undefined));
  }
  return identity.value;
}

/** Forgets the signed-in user's identity, so the next look-up asks the API again (after they change their name). */
export function forgetIdentity() {
  identity = undefined;
}

export const authProvider: AuthProvider = {
  async login({ email, password, loginType }: Credentials) {
    await signIn(loginType, String(email), password).catch((e) => {
      throw toHttpError(e);
    });
    identity = undefined;
  },

  async logout() {
    await revokeToken();
    clearSignedOut();
    identity = undefined;
    forgetPrefetched();
    return '/';
  },

  async checkAuth() {
    if (hasValidSession()) return;
    clearExpired();
    throw { redirectTo: '/', message: false };
  },

  async checkError(error) {
    // 403 means signed in without the right: stay signed in and show the message.
    if (error?.status === 401) {
      clearExpired();
      identity = undefined;
      throw { redirectTo: '/', message: false };
    }
  },

  async getIdentity() {
    const me = await whoAmI();
    return {
      id: me.user.id,
      fullName: me.user.name,
      email: me.user.email,
      role: me.user.role,
      loginType: me.loginType,
      merchantId: me.merchant_id,
      clientId: me.client_id ?? null,
      clientName: me.client_name ?? null,
    };
  },

  async getPermissions() {
    if (!hasValidSession()) return null;
    const me = await whoAmI();
    // A custom role's privileges: the screens ask the same permits() the API enforces.
    return { loginType: me.loginType, role: me.user.role, privileges: me.user.privileges };
  },

  async canAccess({ resource, action }) {
    if (!hasValidSession()) return false;
    const me = await whoAmI();
    return (
      !!me.loginType &&
      canAccess({ loginType: me.loginType, role: me.user.role, privileges: me.user.privileges }, resource, action)
    );
  },
};
