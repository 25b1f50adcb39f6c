import type { LoginType } from '../providers/session';
import type { Action, ResourceDeclaration, Role } from '../engine/types';
import { declarationByName } from './declarations';

export interface Principal {
  loginType: LoginType;
  role: string;
}

/** One rule for the screens and the API: an agency user's role must be granted the action in the declaration. */
export function permits(principal: Principal, decl: ResourceDeclaration, action: Action | string): boolean {
  if (principal.loginType !== 'admin') return false;
  const granted = decl.access[principal.role as Role] ?? [];
  // react-admin asks for 'clone' (a create) and 'read' (a show) as well.
  const asked = action === 'clone' ? 'create' : action === 'read' ? 'show' : action;
  return (granted as string[]).includes(asked);
}

/** Who may do what, as one pure function of (principal, resource, action); deny by default. */
export function canAccess(principal: Principal, resource: string, action: Action | string): boolean {
  const decl = declarationByName.get(resource);
  if (!decl) return false;
  return permits(principal, decl, action);
}
