/**
 * The authorization matrix's principals and outcomes (see tests/api/authz-matrix.ts). In a module of their own:
 * the areas' rows (tests/api/authz/*.ts) are built while authz-matrix.ts is still loading them.
 */
export type BuiltInPrincipal =
  'anonymous' | 'admin' | 'consultant' | 'clientA' | 'clientB' | 'otherAdmin' | 'staff' | 'link';
/**
 * Agency A's users holding one of the agency's own roles (issue 35): customNone's role grants nothing, customFull's
 * every privilege a role can grant (everything admin is declared to do, the roles themselves aside); customUnit's
 * grants as much, limited to the business unit of client A (Care homes), so on agency A's records (of client A where
 * they have a client) it answers as customFull unless the row says otherwise.
 */
export type CustomPrincipal = 'customNone' | 'customFull' | 'customUnit';
export type Principal = BuiltInPrincipal | CustomPrincipal;
const BUILT_IN: BuiltInPrincipal[] = [
  'anonymous',
  'admin',
  'consultant',
  'clientA',
  'clientB',
  'otherAdmin',
  'staff',
  'link',
];
export const PRINCIPALS: Principal[] = [...BUILT_IN, 'customNone', 'customFull', 'customUnit'];
export type Outcome = number | 'ok';

export interface MatrixRow {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify's route url, e.g. '/api/clients/:id'. */
  url: string;
  expect: Record<Principal, Outcome>;
  /**
   * For a route of a record of a resource with staffScope (a shift): what the staff principal gets on a record of
   * their own (their own shift), where `expect.staff` is about agency A's record that is not theirs.
   */
  staffOwn?: Outcome;
}

/**
 * What the custom roles get unless the row says otherwise (customRoles): a public route answers them as it answers
 * admin; every other route refuses a role that grants nothing (403, or 401 where admin's session is not enough
 * either), and answers a role that grants everything as it answers admin, whose grants are the most a role holds.
 * Where that is not so (a route for every agency user, or narrowed to the admin role itself), the row says it.
 */
function customOf(o: Record<BuiltInPrincipal, Outcome>): Record<CustomPrincipal, Outcome> {
  if (o.anonymous !== 401) return { customNone: o.admin, customFull: o.admin, customUnit: o.admin };
  return { customNone: o.admin === 401 ? 401 : 403, customFull: o.admin, customUnit: o.admin };
}

/**
 * One row, every built-in principal's outcome in this order: anonymous, admin, consultant, clientA, clientB,
 * otherAdmin, staff, link. None may be left out: a new route states what a staff member and a link's holder get.
 * The custom roles' outcomes follow from them (customOf) unless customRoles says otherwise.
 */
export const row = (
  method: MatrixRow['method'],
  url: string,
  ...o: [Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome]
): MatrixRow => {
  const builtIn = Object.fromEntries(BUILT_IN.map((p, i) => [p, o[i]])) as Record<BuiltInPrincipal, Outcome>;
  return { method, url, expect: { ...builtIn, ...customOf(builtIn) } };
};

/**
 * The row with the custom roles' outcomes stated: `none` for a role granting nothing, `full` for one granting
 * everything it can (a route every agency user reaches answers both; one narrowed to the admin role refuses both).
 */
export const customRoles = (r: MatrixRow, none: Outcome, full: Outcome, unit: Outcome = full): MatrixRow => ({
  ...r,
  expect: { ...r.expect, customNone: none, customFull: full, customUnit: unit },
});

/** The row with the staff principal's outcome on a record of their own (see MatrixRow.staffOwn). */
export const ownedByStaff = (r: MatrixRow, staffOwn: Outcome): MatrixRow => ({ ...r, staffOwn });

/** Shorthands for the columns that repeat. */
export const A = 401; // anonymous: no token (and a link's token, which is no session)
export const F = 403; // signed in, not granted
export const N = 404; // granted, but the record is not in the caller's agency or client
