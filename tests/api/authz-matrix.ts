/**
 * The authorization matrix (issue 6, section 12): every API route × principal, with the expected outcome.
 * tests/api/authz.test.ts fails when a registered route is missing here (or a row names no route, or leaves out a
 * principal), then runs every row for the eight principals against records of both agencies and both clients.
 *
 * Principals: anonymous; admin and consultant of agency A (Brightway Staffing); clientA (Meadowbank Care Home)
 * and clientB (Oakwood Lodge), client users of agency A; otherAdmin, the admin of agency B; staff, a staff
 * member of agency A signed in to their own page (staff@demo.test), who reaches only their own rows (a `:id` here
 * is not theirs: 404 where staff are granted, 403 where their role is not; `staffOwn` says what they get on a
 * record of their own); link, the holder of a capability link of agency A (a valid token, bound to closing one
 * shift), which reaches that action on that record and nothing else: its token is no session (401 wherever one is
 * needed), opens no invitation (404), and is refused any other action (403, tests/api/authz.test.ts).
 * A `:id` is agency A's record — for clients and sites, one of client A (Meadowbank). Outcomes are the status,
 * or 'ok' for any 2xx. 422 for an allowed principal means "authorised, then validated" (the other agency's
 * admin naming agency A's records in a body they may otherwise send).
 *
 * HEAD routes are left out: Fastify adds one beside each GET, with the same handler and hooks.
 * Every later route joins this table.
 */
// The principals, outcomes and row() live in ./authz/principals (the areas' files use them while this module
// is still loading them); they are re-exported here.
import { A, F, N, ownedByStaff, row, type MatrixRow, type Outcome } from './authz/principals';
import { customRoles } from './authz/principals';
import { areas } from './authz/index';

export {
  A,
  F,
  N,
  ownedByStaff,
  PRINCIPALS,
  row,
  type MatrixRow,
  type Outcome,
  type Principal,
} from './authz/principals';

/**
 * The API routes that need no session, and so authorise by no declaration: the API's description, the health check,
 * signing in, the links whose token is the credential (invitations, capability links), and the public job board's
 * pages (/careers, the one part of the site outside /api that reads the database). Every other /api route
 * is the engine's or registered through route() (server/routes/route.ts); tests/api/authz.test.ts fails otherwise.
 */
export const PUBLIC_ROUTES = [
  'GET /api/docs',
  'GET /api/docs/static/index.html',
  'GET /api/docs/static/swagger-initializer.js',
  'GET /api/docs/static/*',
  'GET /api/docs/json',
  'GET /api/docs/yaml',
  'GET /api/health',
  'POST /api/admin_login',
  'POST /api/client_login',
  'POST /api/staff_login',
  'GET /api/staff_invites/:token',
  'POST /api/staff_invites/:token',
  'GET /api/user_invites/:token',
  'POST /api/user_invites/:token',
  'GET /api/capability/:token',
  'POST /api/capability/:token/actions/:action',
  // The agency's public job board (issue 35): pages, not the API, open to anyone (tests/api/authz/careers.ts).
  'GET /careers/:slug',
  'GET /careers/:slug/jobs/:id',
  'GET /careers/:slug/jobs/:id/applied',
  'POST /careers/:slug/jobs/:id/apply',
];

export const matrix: MatrixRow[] = [
  // The API description is public documentation (Swagger UI, its files and the OpenAPI document).
  row('GET', '/api/docs', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'),
  // Swagger UI sends its own index page on to /api/docs (302).
  row('GET', '/api/docs/static/index.html', 302, 302, 302, 302, 302, 302, 302, 302),
  row('GET', '/api/docs/static/swagger-initializer.js', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'),
  row('GET', '/api/docs/static/*', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'),
  row('GET', '/api/docs/json', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'),
  row('GET', '/api/docs/yaml', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'),
  row('GET', '/api/health', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'),

  // Signing in is public; who am I is per panel; signing out needs a session.
  row('POST', '/api/admin_login', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'),
  row('GET', '/api/admin_login', A, 'ok', 'ok', F, F, 'ok', F, A),
  row('POST', '/api/client_login', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'),
  row('GET', '/api/client_login', A, F, F, 'ok', 'ok', F, F, A),
  row('POST', '/api/logout', A, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', A),

  // The shell: the agency's own profile and logos for every user of the agency; search and notifications for agency
  // users.
  row('GET', '/api/merchants/:id', A, 'ok', 'ok', 'ok', 'ok', N, F, A),
  row('GET', '/api/agency_logo_list', A, 'ok', 'ok', 'ok', 'ok', 'ok', F, A),
  // The other agency searches for agency A's staff member and finds nobody (404 is the route's "none found").
  row('GET', '/api/search_candidate', A, 'ok', 'ok', F, F, N, F, A),
  row('GET', '/api/agency_notifications', A, 'ok', 'ok', F, F, 'ok', F, A),
  row('PUT', '/api/merchant_notification_read_all', A, 'ok', 'ok', F, F, 'ok', F, A),

  // The agency's name and logo: its admins change them. One's own name and password: every signed-in user (the
  // password row sends a wrong current password, so every allowed principal is authorised and then refused: 422).
  row('PUT', '/api/merchants/:id', A, 'ok', F, F, F, N, F, A),
  row('PUT', '/api/me', A, 'ok', 'ok', 'ok', 'ok', 'ok', F, A),
  row('POST', '/api/me/password', A, 422, 422, 422, 422, 422, F, A),
  // Number series (numbering): agency users read their agency's; only its admins move a next number forward.
  row('GET', '/api/number_series', A, 'ok', 'ok', F, F, 'ok', F, A),
  row('PUT', '/api/number_series/:series', A, 'ok', F, F, F, 'ok', F, A),

  // Files: a user uploads only what a form they may create or edit takes (client users: nothing, 403); a file is
  // served to those who may see its record (a staff document: agency users).
  // A staff member uploads their own documents (issue 17); the shared file is a document of the shared staff
  // member, who is the signed-in staff member (staff@demo.test).
  row('POST', '/api/files', A, 201, 201, F, F, 201, 201, A),
  row('GET', '/api/files/:id', A, 'ok', 'ok', N, N, N, 'ok', A),

  // Clients: agency users; a client user may open their own client only.
  row('GET', '/api/clients', A, 'ok', 'ok', F, F, 'ok', F, A),
  row('GET', '/api/clients/:id', A, 'ok', 'ok', 'ok', N, N, F, A),
  row('POST', '/api/clients', A, 201, 201, F, F, 201, F, A),
  row('PUT', '/api/clients/:id', A, 'ok', 'ok', F, F, N, F, A),
  row('DELETE', '/api/clients/:id', A, 'ok', F, F, F, N, F, A),

  // Sites: a client user lists and opens their own client's sites.
  row('GET', '/api/sites', A, 'ok', 'ok', 'ok', 'ok', 'ok', F, A),
  row('GET', '/api/sites/:id', A, 'ok', 'ok', 'ok', N, N, F, A),
  row('POST', '/api/sites', A, 201, 201, F, F, 422, F, A),
  row('PUT', '/api/sites/:id', A, 'ok', 'ok', F, F, N, F, A),
  row('DELETE', '/api/sites/:id', A, 'ok', F, F, F, N, F, A),

  // Staff: agency users; consultants do not delete. The other agency's admin names agency A's job role: 422.
  row('GET', '/api/candidates', A, 'ok', 'ok', F, F, 'ok', F, A),
  ownedByStaff(row('GET', '/api/candidates/:id', A, 'ok', 'ok', F, F, N, F, A), F),
  row('POST', '/api/candidates', A, 201, 201, F, F, 422, F, A),
  ownedByStaff(row('PUT', '/api/candidates/:id', A, 'ok', 'ok', F, F, N, F, A), F),
  ownedByStaff(row('DELETE', '/api/candidates/:id', A, 'ok', F, F, F, N, F, A), F),
  ownedByStaff(row('GET', '/api/candidates/:id/compliance', A, 'ok', 'ok', F, F, N, F, A), F),
  ownedByStaff(row('POST', '/api/candidates/:id/actions/approve', A, 'ok', 'ok', F, F, N, F, A), F),
  row('POST', '/api/candidates/actions/approve', A, 'ok', 'ok', F, F, N, F, A),
  ownedByStaff(row('POST', '/api/candidates/:id/actions/reject', A, 'ok', 'ok', F, F, N, F, A), F),
  row('POST', '/api/candidates/actions/reject', A, 'ok', 'ok', F, F, N, F, A),
  // On a staff member who is not compliant: an admin with a reason activates, a consultant is refused (422).
  ownedByStaff(row('POST', '/api/candidates/:id/actions/activate', A, 'ok', 422, F, F, N, F, A), F),
  row('POST', '/api/candidates/actions/activate', A, 'ok', 422, F, F, N, F, A),
  ownedByStaff(row('POST', '/api/candidates/:id/actions/deactivate', A, 'ok', 'ok', F, F, N, F, A), F),
  row('POST', '/api/candidates/actions/deactivate', A, 'ok', 'ok', F, F, N, F, A),

  // Availability week grid: agency users.
  row('GET', '/api/staff_availability', A, 'ok', 'ok', F, F, 'ok', F, A),
  row('POST', '/api/staff_availability/copy_week', A, 'ok', 'ok', F, F, 'ok', F, A),
];

/**
 * The CRUD rows of a settings resource: admins change them, consultants read them, and client users read those
 * they choose from when requesting a shift (job roles, of the whole agency: both clients). `staffScoped`: the
 * resource opens its rows to staff (staffScope), but staff have no route to them, on their own rows either.
 */
function settingRows(name: string, otherAdminCreate: Outcome, clientsRead = false, staffScoped = false): MatrixRow[] {
  const client = clientsRead ? 'ok' : F;
  const own = (r: MatrixRow) => (staffScoped ? ownedByStaff(r, F) : r);
  return [
    row('GET', `/api/${name}`, A, 'ok', 'ok', client, client, 'ok', F, A),
    own(row('GET', `/api/${name}/:id`, A, 'ok', 'ok', client, client, N, F, A)),
    row('POST', `/api/${name}`, A, 201, F, F, F, otherAdminCreate, F, A),
    own(row('PUT', `/api/${name}/:id`, A, 'ok', F, F, F, N, F, A)),
    own(row('DELETE', `/api/${name}/:id`, A, 'ok', F, F, F, N, F, A)),
  ];
}
matrix.push(
  ...settingRows('job_roles', 201, true),
  ...settingRows('staff_statuses', 201),
  ...settingRows('employment_types', 201),
  // A staff profile names agency A's job role.
  ...settingRows('staff_profiles', 422),
  // Staff name one when they upload a document (staffScope 'agency'), through their upload only.
  ...settingRows('document_categories', 201, false, true),
  ...settingRows('staff_detail_fields', 201),
);

/** The CRUD rows of a staff member's child records: agency users; consultants do not delete. */
function staffChildRows(name: string): MatrixRow[] {
  return [
    row('GET', `/api/${name}`, A, 'ok', 'ok', F, F, 'ok', F, A),
    row('GET', `/api/${name}/:id`, A, 'ok', 'ok', F, F, N, F, A),
    // The body names agency A's staff member: the other agency's admin gets 422.
    row('POST', `/api/${name}`, A, 201, 201, F, F, 422, F, A),
    row('PUT', `/api/${name}/:id`, A, 'ok', 'ok', F, F, N, F, A),
    row('DELETE', `/api/${name}/:id`, A, 'ok', F, F, F, N, F, A),
  ];
}
matrix.push(
  // A staff member lists their own documents and uploads one for themselves (issue 17); they change none. The shared
  // staff member is the signed-in one (staff@demo.test); tests/api/staff-requests.test.ts tries another's (422).
  row('GET', '/api/candidate_documents', A, 'ok', 'ok', F, F, 'ok', 'ok', A),
  ownedByStaff(row('GET', '/api/candidate_documents/:id', A, 'ok', 'ok', F, F, N, 'ok', A), 'ok'),
  row('POST', '/api/candidate_documents', A, 201, 201, F, F, 422, 201, A),
  ownedByStaff(row('PUT', '/api/candidate_documents/:id', A, 'ok', 'ok', F, F, N, F, A), F),
  ownedByStaff(row('DELETE', '/api/candidate_documents/:id', A, 'ok', F, F, F, N, F, A), F),
  row('GET', '/api/staff_compliance', A, F, F, F, F, F, 'ok', A),
  ownedByStaff(row('POST', '/api/candidate_documents/:id/actions/verify', A, 'ok', 'ok', F, F, N, F, A), F),
  row('POST', '/api/candidate_documents/actions/verify', A, 'ok', 'ok', F, F, N, F, A),
  ownedByStaff(row('POST', '/api/candidate_documents/:id/actions/reject', A, 'ok', 'ok', F, F, N, F, A), F),
  ...staffChildRows('candidate_restrictions'),
  ...staffChildRows('candidate_preferences'),
  ...staffChildRows('availability'),

  // The audit trail: read by agency users, written by nobody.
  row('GET', '/api/audit_entries', A, 'ok', 'ok', F, F, 'ok', F, A),
  row('GET', '/api/audit_entries/:id', A, 'ok', 'ok', F, F, N, F, A),
  row('POST', '/api/audit_entries', A, F, F, F, F, F, F, A),
  row('PUT', '/api/audit_entries/:id', A, F, F, F, F, F, F, A),
  row('DELETE', '/api/audit_entries/:id', A, F, F, F, F, F, F, A),

  // Capability links: the token in the path is the only credential, so a session (anyone's) adds nothing, and a
  // token that names no link answers 404 to everyone without one. The link's holder reads its record and runs its
  // one action (a fresh link each time: it is used up); tests/api/capability-links.test.ts has the refusals.
  row('GET', '/api/capability/:token', N, N, N, N, N, N, N, 'ok'),
  row('POST', '/api/capability/:token/actions/:action', N, N, N, N, N, N, N, 'ok'),
);

// The areas built after the foundation (rates, shifts, communication, notes) keep their rows in tests/api/authz/.
matrix.push(...areas.flatMap((a) => a.rows));

/**
 * The custom roles (issue 35) where they differ from the rule of row() (a role granting nothing is refused, one
 * granting everything answers as admin): [customNone, customFull]; the unit-limited one answers as customFull
 * unless UNIT_OUTCOMES says otherwise.
 * - Every agency user's own routes (their session, account, notifications, the shell, the dashboard whose figures
 *   each come from a list they may read, a pay calculator that reads nothing): answered to both.
 * - Routes narrowed to the admin role or to the built-in roles (the agency's settings, the mailbox,
 *   the staff's chat and messages, one's notification preferences): refused to both — no privilege covers them.
 * - The declared reports follow the rule: each is a privilege of its own (`reports.<name>`), held by the full role.
 * - Another's background job: 404 to both (a custom role follows its own jobs).
 * - A file: not found for a role that may see no record holding it.
 * - Activating a staff member over missing checks: an admin's override (the behaviour asks the role): authorised,
 *   then refused on the field.
 */
const CUSTOM_OUTCOMES: Record<string, [Outcome, Outcome]> = {
  'GET /api/admin_login': ['ok', 'ok'],
  'POST /api/logout': ['ok', 'ok'],
  'GET /api/agency_logo_list': ['ok', 'ok'],
  'GET /api/agency_notifications': ['ok', 'ok'],
  'PUT /api/merchant_notification_read_all': ['ok', 'ok'],
  'GET /api/merchants/:id': ['ok', 'ok'],
  'GET /api/number_series': ['ok', 'ok'],
  'GET /api/dashboard/needs_doing': ['ok', 'ok'],
  'PUT /api/me': ['ok', 'ok'],
  'POST /api/me/password': [422, 422],
  'POST /api/payroll/calculate': ['ok', 'ok'],
  'GET /api/jobs/:id': [N, N],
  'GET /api/files/:id': [N, 'ok'],
  'GET /api/chats/conversations': [F, F],
  'GET /api/chats/fetch_messages': [F, F],
  'GET /api/chats/stream': [F, F],
  'GET /api/chats/unread_count': [F, F],
  'POST /api/chats/create_channel': [F, F],
  'POST /api/chats/mark_read': [F, F],
  'POST /api/chats/send_message_to_channel': [F, F],
  'GET /api/message_outbox': [F, F],
  'GET /api/mailbox': [F, F],
  'GET /api/mailbox/:id': [F, F],
  'GET /api/me/notification_preferences': [F, F],
  'PUT /api/me/notification_preferences/:event': [F, F],
  'GET /api/notification_settings': [F, F],
  'PUT /api/notification_settings/:event': [F, F],
  'PUT /api/notification_templates/:event': [F, F],
  'DELETE /api/notification_templates/:event': [F, F],
  'PUT /api/notification_payment_settings': [F, F],
  'GET /api/invoice_settings': [F, F],
  'PUT /api/invoice_settings': [F, F],
  'PUT /api/merchants/:id': [F, F],
  'PUT /api/number_series/:series': [F, F],
  // The agency's and client settings are served by their own routes (served: false): no privilege reaches them.
  'GET /api/agency_settings': [F, F],
  'PUT /api/agency_settings': [F, F],
  // The subscription is the agency settings row's too (its plan, by its change_plan action).
  'GET /api/subscription': [F, F],
  'POST /api/subscription/plan': [F, F],
  'GET /api/client_settings': [F, F],
  'PUT /api/client_settings': [F, F],
  'GET /api/client_settings/users': [F, F],
  'PUT /api/client_settings/users/:id': [F, F],
  'POST /api/candidates/:id/actions/activate': [F, 422],
  'POST /api/candidates/actions/activate': [F, 422],
};
for (const [i, r] of matrix.entries()) {
  const custom = CUSTOM_OUTCOMES[`${r.method} ${r.url}`];
  if (custom) matrix[i] = customRoles(r, ...custom);
}
/**
 * The unit-limited custom role (customUnit: every privilege, limited to client A's business unit) where it differs
 * from customFull: the rows whose record is of a new client, made in no unit (one set of pricing rules per client,
 * a client to delete), which is outside every unit-limited role — not found, or not there to name.
 */
const UNIT_OUTCOMES: Record<string, Outcome> = {
  'DELETE /api/clients/:id': N,
  'GET /api/client_rules/:id': N,
  'PUT /api/client_rules/:id': N,
  'DELETE /api/client_rules/:id': N,
  'POST /api/client_rules': 422,
};
for (const [i, r] of matrix.entries()) {
  const unit = UNIT_OUTCOMES[`${r.method} ${r.url}`];
  if (unit !== undefined) matrix[i] = { ...r, expect: { ...r.expect, customUnit: unit } };
}
/** Overrides naming no row (a route renamed or gone): the authorization test fails on them. */
export const unknownCustomOutcomes = [...Object.keys(CUSTOM_OUTCOMES), ...Object.keys(UNIT_OUTCOMES)].filter(
  (k) => !matrix.some((r) => `${r.method} ${r.url}` === k),
);
