import type { SignedIn } from '../../core/contracts/auth';
/**
 * The browser session, stored exactly under the spec's keys: token, tokenExpiration, loginType, merchant_id
 * (and selectedTemplate, owned by the invoice screens).
 */
import { loginTypeOfStored, type LoginType, type PanelLoginType } from '../../core/engine/types';

export type { LoginType, PanelLoginType };

export const KEYS = {
  token: 'token',
  tokenExpiration: 'tokenExpiration',
  loginType: 'loginType',
  merchantId: 'merchant_id',
  selectedTemplate: 'selectedTemplate',
} as const;

/** What signing in answers: its type comes from the API's contract (core/contracts/auth.ts). */
export type LoginResponse = SignedIn;

export function saveSession(r: LoginResponse) {
  localStorage.setItem(KEYS.token, r.token);
  localStorage.setItem(KEYS.tokenExpiration, r.token_expiration);
  localStorage.setItem(KEYS.loginType, r.login_type);
  localStorage.setItem(KEYS.merchantId, String(r.merchant_id));
}

export const getToken = () => localStorage.getItem(KEYS.token);
/** The signed-in panel, from the spec's stored value ('admin' is the agency's). */
export const getLoginType = (): PanelLoginType | null => {
  const t = loginTypeOfStored(localStorage.getItem(KEYS.loginType));
  return t === 'link' ? null : t;
};
export const getMerchantId = () => localStorage.getItem(KEYS.merchantId);

/** A token is usable while it exists and its expiry lies in the future. */
export function hasValidSession(now = Date.now()): boolean {
  const token = getToken();
  const expiry = Date.parse(localStorage.getItem(KEYS.tokenExpiration) ?? '');
  return !!token && Number.isFinite(expiry) && expiry > now;
}

export function hasExpiredSession(now = Date.now()): boolean {
  return !!getToken() && !hasValidSession(now);
}

/** Sign-out clears the token and its expiry (spec section 4); the panel choice is remembered for the Login page. */
export function clearSignedOut() {
  localStorage.removeItem(KEYS.token);
  localStorage.removeItem(KEYS.tokenExpiration);
}

/** An expired or rejected token clears token, expiry and login type (spec section 4). */
export function clearExpired() {
  clearSignedOut();
  localStorage.removeItem(KEYS.loginType);
}

/** Where a signed-in user belongs. */
export const homeOf = (t: LoginType | null) =>
  t === 'client' ? '/client/clientDashboard' : t === 'staff' ? '/staff-app' : '/home';
