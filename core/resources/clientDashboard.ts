/*
 * The client dashboard (issue 34): /client/clientDashboard, and /client/clientDashboard/{site id} for one site. Every
 * panel is a page of one of the engine's own lists, read under the client user's scope and read policy (their own
 * client only; never pay or margin), so what a panel shows and the list it opens agree. Declared once here: the screen
 * reads these paths, and tests/api/client-dashboard.test.ts holds each to the client's scope.
 *
 *   upcoming shifts   GET /api/shifts?tab=open|assigned, starting from now to UPCOMING_DAYS ahead (unfilled, filled):
 *                     the soonest of each and their counts; the lists opened are the client's Open and Assigned
 *                     shifts with the same window (?filter=)
 *   awaiting signature  GET /api/timesheets?status=submitted: signed from the dashboard by the timesheets' own
 *                     approve action
 *   invoices          GET /api/invoices?state=issued,sent,part_paid (due) and the same with overdue=true: each the
 *                     balance summed in SQL by the list's declared totals (listTotals)
 *   notifications     the client user's own inbox (GET /api/client_notifications), as the top bar reads it
 *   spend             the declared report `client_spend` (core/resources/reports.ts: the charge of booked and worked
 *                     shifts, never pay or margin) over SPEND_PERIOD, grouped by week and by site
 *   one site          GET /api/sites/{id} (another client's site answers 404); the lists above add site_id
 */

/** How far ahead "this week's" upcoming shifts reach: the next seven days, whatever today's weekday. */
export const UPCOMING_DAYS = 7;
/** The spend's period: a preset of the report engine (core/engine/reports.ts). */
export const SPEND_PERIOD = 'last_12_weeks';
/** Rows shown in each panel; the counts are of every row, and each panel opens its whole list. */
export const PANEL_ROWS = 10;
/** The states of an invoice that still has something to pay. */
export const OWED_STATES = ['issued', 'sent', 'part_paid'] as const;

export interface ClientDashboardReads {
  /** The window of the upcoming shifts, as ISO instants: the lists opened filter on the same. */
  window: { start_at_gte: string; start_at_lte: string };
  unfilled: string;
  filled: string;
  awaitingSignature: string;
  invoicesDue: string;
  invoicesOverdue: string;
  spendByWeek: string;
  spendBySite: string;
  /** The one site, when the dashboard is a site's. */
  site?: string;
}

/** A query string (core has neither DOM nor Node: no URLSearchParams). */
const query = (params: Record<string, string | number | undefined>) =>
  Object.entries(params)
    .flatMap(([k, v]) => (v === undefined ? [] : [`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`]))
    .join('&');

/** The engine list paths (under /api) the dashboard reads at `now`, for the whole client or one of its sites. */
export function clientDashboardReads(now: Date, siteId?: number): ClientDashboardReads {
  const window = {
    start_at_gte: now.toISOString(),
    start_at_lte: new Date(now.getTime() + UPCOMING_DAYS * 86_400_000).toISOString(),
  };
  const site = siteId ? { site_id: siteId } : {};
  const page = { per_page: PANEL_ROWS, page: 1 };
  const shifts = (tab: string) =>
    `/shifts?${query({ tab, ...window, ...site, sort: 'start_at', order: 'ASC', ...page })}`;
  const spend = (params: Record<string, string | number>) =>
    `/reports/client_spend?${query({ period: SPEND_PERIOD, ...site, ...params })}`;
  const owed = { state: OWED_STATES.join(','), ...site, sort: 'due_date', order: 'ASC' };
  return {
    window,
    unfilled: shifts('open'),
    filled: shifts('assigned'),
    awaitingSignature: `/timesheets?${query({ status: 'submitted', ...site, sort: 'period_start', order: 'ASC', ...page })}`,
    invoicesDue: `/invoices?${query({ ...owed, ...page })}`,
    invoicesOverdue: `/invoices?${query({ ...owed, overdue: 'true', per_page: 1, page: 1 })}`,
    spendByWeek: spend({ group: 'week', sort: 'week', order: 'asc', per_page: 20 }),
    spendBySite: spend({ group: 'site', sort: 'charge', order: 'desc', per_page: PANEL_ROWS }),
    ...(siteId ? { site: `/sites/${siteId}` } : {}),
  };
}

/** The client panel's lists each panel opens (the shift lists with the panel's window and site as their filter). */
export const CLIENT_DASHBOARD_LINKS = {
  unfilled: '/client/shift/open-shift',
  filled: '/client/shift/assign-shift',
  requestShift: '/client/shift/request',
  timesheets: '/client/signedTimesheet',
  invoices: '/client/invoice',
  notifications: '/client/ClientNotification',
} as const;

/** A client-panel shift list narrowed to the dashboard's window (and site): `route?filter=…`, as react-admin reads. */
export function shiftListLink(route: string, window: ClientDashboardReads['window'], siteId?: number) {
  return `${route}?${query({ filter: JSON.stringify({ ...window, ...(siteId ? { site_id: siteId } : {}) }) })}`;
}
