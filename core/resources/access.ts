import type { Action, LoginType, ResourceDeclaration, Role } from '../engine/types';
import { CRUD_ACTIONS, ROLE_LOGIN } from '../engine/types';
import { declarationByName } from './declarations';

export type { Principal } from '../engine/types';
import type { Principal } from '../engine/types';

/** A role counts only in the panel it belongs to: an agency role never grants a client user anything. */
const roleOf = (principal: Principal): Role | undefined => {
  const role = principal.role as Role;
  return ROLE_LOGIN[role] === principal.loginType ? role : undefined;
};

/**
 * One rule for the screens and the API: the principal's role must be granted the action in the declaration,
 * either a CRUD action (access) or one of its record actions (actions[].roles). Deny by default.
 */
export function permits(principal: Principal, decl: ResourceDeclaration, action: Action | string): boolean {
  const role = roleOf(principal);
  if (!role) return false;
  // react-admin asks for 'clone' (a create) and 'read' (a show) as well.
  const asked = action === 'clone' ? 'create' : action === 'read' ? 'show' : action;
  if (CRUD_ACTIONS.includes(asked)) return ((decl.access[role] ?? []) as string[]).includes(asked);
  return !!decl.actions?.find((a) => a.name === asked)?.roles.includes(role);
}

/**
 * Whether the principal holds one of these roles (in the panel the role belongs to): the rule of a route that is
 * about no one declared resource (the caller's own account, their inbox), in the declarations' own terms.
 */
export const hasRole = (principal: Principal, roles: readonly Role[]): boolean => {
  const role = roleOf(principal);
  return !!role && roles.includes(role);
};

/** The roles of these panels: `rolesOf('agency', 'client')` is every agency and client user, never staff. */
export const rolesOf = (...logins: LoginType[]): Role[] =>
  (Object.keys(ROLE_LOGIN) as Role[]).filter((r) => logins.includes(ROLE_LOGIN[r]));

/** Principals outside the agency and its clients: a staff member, the holder of a capability link. */
const OUTSIDERS: readonly string[] = ['staff', 'link'];

/**
 * Whether the principal receives a field at all (pay rates are never sent to client users). Staff members and link
 * holders are outside the agency and its clients: deny by default, so a field reaches them only when its readableBy
 * names their role (a new field with charges or margins never leaks to a phone or a link by being forgotten).
 */
export const canRead = (principal: Principal, roles?: Role[]) =>
  OUTSIDERS.includes(principal.loginType)
    ? principal.role === principal.loginType && !!roles?.includes(principal.role as Role)
    : !roles || roles.includes(principal.role as Role);

/** Who may do what, as one pure function of (principal, resource, action); deny by default. */
export function canAccess(principal: Principal, resource: string, action: Action | string): boolean {
  const decl = declarationByName.get(resource);
  if (!decl) return false;
  return permits(principal, decl, action);
}
