/**
 * The authorization matrix's principals and outcomes (see tests/api/authz-matrix.ts). In a module of their own:
 * the areas' rows (tests/api/authz/*.ts) are built while authz-matrix.ts is still loading them.
 */
export type Principal = 'anonymous' | 'admin' | 'consultant' | 'clientA' | 'clientB' | 'otherAdmin' | 'staff' | 'link';
export const PRINCIPALS: Principal[] = [
  'anonymous',
  'admin',
  'consultant',
  'clientA',
  'clientB',
  'otherAdmin',
  'staff',
  'link',
];
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
 * One row, every principal's outcome in the order of PRINCIPALS: anonymous, admin, consultant, clientA, clientB,
 * otherAdmin, staff, link. None may be left out: a new route states what a staff member and a link's holder get.
 */
export const row = (
  method: MatrixRow['method'],
  url: string,
  ...o: [Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome]
): MatrixRow => ({
  method,
  url,
  expect: Object.fromEntries(PRINCIPALS.map((p, i) => [p, o[i]])) as Record<Principal, Outcome>,
});

/** The row with the staff principal's outcome on a record of their own (see MatrixRow.staffOwn). */
export const ownedByStaff = (r: MatrixRow, staffOwn: Outcome): MatrixRow => ({ ...r, staffOwn });

/** Shorthands for the columns that repeat. */
export const A = 401; // anonymous: no token (and a link's token, which is no session)
export const F = 403; // signed in, not granted
export const N = 404; // granted, but the record is not in the caller's agency or client
