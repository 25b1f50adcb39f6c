import type { LoginType } from '../providers/session';

export type Action = 'list' | 'show' | 'create' | 'edit' | 'delete' | 'export' | string;
export interface Principal {
  loginType: LoginType;
  role: string;
}

/**
 * Who may do what, as one pure function of (principal, resource, action); deny by default.
 * The resource engine fills in per-resource rules from each declaration (see ./registry).
 */
export function canAccess(principal: Principal, resource: string, action: Action): boolean {
  void resource;
  void action;
  return principal.loginType === 'admin';
}
