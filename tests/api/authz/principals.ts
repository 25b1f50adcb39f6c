/**
 * The authorization matrix's principals and outcomes (see tests/api/authz-matrix.ts). In a module of their own:
 * the areas' rows (tests/api/authz/*.ts) are built while authz-matrix.ts is still loading them.
 */
export type Principal = 'anonymous' | 'admin' | 'consultant' | 'clientA' | 'clientB' | 'otherAdmin' | 'staff';
export const PRINCIPALS: Principal[] = [
  'anonymous',
  'admin',
  'consultant',
  'clientA',
  'clientB',
  'otherAdmin',
  'staff',
];
export type Outcome = number | 'ok';

export interface MatrixRow {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify's route url, e.g. '/api/clients/:id'. */
  url: string;
  expect: Record<Principal, Outcome>;
}

/**
 * One row, the outcomes in the order of PRINCIPALS: anonymous, admin, consultant, clientA, clientB, otherAdmin,
 * staff. The staff outcome may be left out: a public route answers staff as it answers anyone (the anonymous
 * outcome); every other route refuses a staff token (403) unless the row says otherwise.
 */
export const row = (
  method: MatrixRow['method'],
  url: string,
  ...o: [Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome?]
): MatrixRow => {
  const staff = o[6] ?? (o[0] === 401 ? 403 : o[0]);
  return {
    method,
    url,
    expect: Object.fromEntries(PRINCIPALS.map((p, i) => [p, i === 6 ? staff : o[i]])) as Record<Principal, Outcome>,
  };
};

/** Shorthands for the columns that repeat. */
export const A = 401; // anonymous: no token
export const F = 403; // signed in, not granted
export const N = 404; // granted, but the record is not in the caller's agency or client
