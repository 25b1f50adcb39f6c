import type { Action, FieldDeclaration, FieldGroup, LoginType, ResourceDeclaration, Role } from '../engine/types';
import { CRUD_ACTIONS, ROLE_LOGIN } from '../engine/types';
import { declarationByName } from './declarations';
import { FIELD_GROUP_LABELS, fieldGroupKey, grantable, privilegeKey, reportKey } from './roles/privileges';
import type { ReportDeclaration } from '../engine/reports';

export type { Principal } from '../engine/types';
import type { Principal } from '../engine/types';

/** A role counts only in the panel it belongs to: an agency role never grants a client user anything. */
const roleOf = (principal: Principal): Role | undefined => {
  const role = principal.role as Role;
  return ROLE_LOGIN[role] === principal.loginType ? role : undefined;
};

const ADMIN: Principal = { loginType: 'agency', role: 'admin' };

// A role's privileges as a set, made once per session look-up (the array is the session's own).
const privilegeSets = new WeakMap<readonly string[], ReadonlySet<string>>();
const privilegesOf = (principal: Principal): ReadonlySet<string> => {
  const list = principal.privileges ?? [];
  let set = privilegeSets.get(list);
  if (!set) privilegeSets.set(list, (set = new Set(list)));
  return set;
};

/**
 * One rule for the screens and the API: the principal's role must be granted the action in the declaration,
 * either a CRUD action (access) or one of its record actions (actions[].roles). Deny by default. A custom role
 * (an agency's own, issue 35) is granted what its stored privileges name and admin is declared to do: never more
 * than admin, whatever was stored, and only in the agency panel (roleOf: 'custom' belongs to it).
 */
export function permits(principal: Principal, decl: ResourceDeclaration, action: Action | string): boolean {
  const role = roleOf(principal);
  if (!role) return false;
  // react-admin asks for 'clone' (a create) and 'read' (a show) as well.
  const asked = action === 'clone' ? 'create' : action === 'read' ? 'show' : action;
  if (role === 'custom')
    return (
      grantable(decl) && privilegesOf(principal).has(privilegeKey(decl.name, asked)) && permits(ADMIN, decl, asked)
    );
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

/**
 * The built-in roles of these panels, without the agency's own roles: the rule of a route about no declared resource
 * whose data no privilege covers (the staff members' chat, the messages sent to them). A custom role is granted
 * only what its privileges name, so such a route stays the built-in roles' (issue 35).
 */
export const builtInRolesOf = (...logins: LoginType[]): Role[] => rolesOf(...logins).filter((r) => r !== 'custom');

/** Principals outside the agency and its clients: a staff member, the holder of a capability link. */
const OUTSIDERS: readonly string[] = ['staff', 'link'];

/** The built-in agency roles: a guarded field in no group reaches a custom role only when all of them read it. */
const BUILT_IN_AGENCY: readonly Role[] = ['admin', 'consultant'];

/**
 * Whether the principal receives a field at all (pay rates are never sent to client users). Staff members and link
 * holders are outside the agency and its clients: deny by default, so a field reaches them only when its readableBy
 * names their role (a new field with charges or margins never leaks to a phone or a link by being forgotten).
 * A custom role (issue 35) receives a field of a guarded group (pay rates, margins, bank details) when its role is
 * granted every group the field names and admin reads the field; any other guarded field only when both built-in
 * agency roles read it: nothing else narrowed to admin (secrets) reaches it.
 */
export const canRead = (principal: Principal, roles?: readonly Role[], groups?: readonly FieldGroup[]) => {
  if (OUTSIDERS.includes(principal.loginType))
    return principal.role === principal.loginType && !!roles?.includes(principal.role as Role);
  if (principal.role !== 'custom') return !roles || roles.includes(principal.role as Role);
  if (principal.loginType !== 'agency') return false;
  if (groups?.length) {
    const held = privilegesOf(principal);
    return (!roles || roles.includes('admin')) && groups.every((g) => held.has(fieldGroupKey(g)));
  }
  return !roles || BUILT_IN_AGENCY.every((r) => roles.includes(r));
};

/**
 * The guarded field groups of a form's fields that the principal's role is not granted. The write policy refuses a
 * field its writer cannot read (server/engine/write.ts, applyWritePolicy), so such a form cannot be saved by them:
 * the screens say so before the save (a custom role without "Pay rates" on a rate card), by this same canRead.
 */
export function missingFieldGroups(principal: Principal, fields: readonly FieldDeclaration[]): FieldGroup[] {
  // Groups are granted to an agency's own roles; a built-in role's fields are its declaration's (readableBy).
  if (principal.role !== 'custom') return [];
  const out = new Set<FieldGroup>();
  for (const f of fields) for (const g of f.groups ?? []) if (!canRead(principal, f.readableBy, [g])) out.add(g);
  return [...out];
}

/** What a form says when the principal's role lacks field groups it holds, or null. */
export function missingGroupsWarning(groups: readonly FieldGroup[]): string | null {
  if (!groups.length) return null;
  const names = groups.map((g) => `“${FIELD_GROUP_LABELS[g]}”`).join(' and ');
  return `Your role is not granted ${names}, which this form needs: saving it will be refused. Ask an admin to grant ${
    groups.length === 1 ? 'it' : 'them'
  } to your role (Settings → Privileges).`;
}

/**
 * Whether the principal may run a declared report (`export`: download it): a built-in role named in the report's
 * roles (exportRoles); a custom role granted the report (`reports.<name>`) where admin may. The rows are still
 * the report's base lists', so its route also asks for their list privilege.
 */
export function mayRunReport(
  principal: Principal,
  report: Pick<ReportDeclaration, 'name' | 'roles' | 'exportRoles'>,
  what: 'view' | 'export' = 'view',
): boolean {
  const roles = what === 'export' ? report.exportRoles : report.roles;
  const role = roleOf(principal);
  if (role === 'custom') return roles.includes('admin') && privilegesOf(principal).has(reportKey(report.name));
  return !!role && roles.includes(role);
}

/** Who may do what, as one pure function of (principal, resource, action); deny by default. */
export function canAccess(principal: Principal, resource: string, action: Action | string): boolean {
  const decl = declarationByName.get(resource);
  if (!decl) return false;
  return permits(principal, decl, action);
}
