import type { ResourceDeclaration } from './types';

/**
 * The path from a resource's rows to the client whose business unit limits them for a custom role limited to units
 * (issue 35), or null when the resource is not limited by unit: its declared unitScope, else its clientScope (the
 * path client users follow), none for the agency's shared vocabulary (clientScope 'agency') or without either.
 */
export function unitPathOf(decl: ResourceDeclaration): string | null {
  if (decl.unitScope !== undefined) return typeof decl.unitScope === 'string' ? decl.unitScope : null;
  return decl.clientScope && decl.clientScope !== 'agency' ? decl.clientScope : null;
}

/**
 * The resources that refer to clients, or to rows limited by unit, and say nothing of units (neither a unitScope nor
 * a clientScope that leads to a client): each must declare its path or `{ none: why }`, so a new resource cannot
 * forget, and a unit-limited role never sees another unit's rows through a resource nobody thought of.
 */
export function unitScopeGaps(declarations: readonly ResourceDeclaration[]): string[] {
  // Units are the clients' (clients.business_unit_id): a set of declarations without clients (a test's) has none.
  if (!declarations.some((d) => d.name === 'clients')) return [];
  const limited = new Set(declarations.filter((d) => unitPathOf(d) !== null).map((d) => d.name));
  limited.add('clients');
  return declarations
    .filter((d) => d.unitScope === undefined && unitPathOf(d) === null)
    .flatMap((d) =>
      d.fields
        .filter((f) => (f.type === 'reference' || f.type === 'references') && f.reference && limited.has(f.reference))
        .map((f) => `${d.name}.${f.source} refers to ${f.reference}: declare its unitScope (a path or { none })`),
    );
}
