import { BOOKED_WITHIN_DAYS, DUE_WITHIN_DAYS } from '../domain/compliance/documents';
import { AWAITING_SIGNATURE_DAYS } from '../domain/timesheets/rules';

/*
 * The agency dashboard's "Needs doing" work queue (issue 34), declared as data: each item is a count of one
 * resource's list (a tab and filters of its declaration) and the admin route that lists exactly those rows.
 *
 *   GET /api/dashboard/needs_doing → { data: [{ id, count, sum?, route, filter }], as_of }
 *     (server/routes/dashboard.ts) counts every item the caller may list, in one statement, through the engine's
 *     list path: the same WHERE (row scope, read policy, tab, filters) as GET /api/{resource}?tab&filter. An item
 *     over a resource the caller may not list is absent; `sum` only when the caller may read the summed field.
 *     `filter` is the item's filter with its relative instants resolved: the screen opens `route?filter=…`, so the
 *     list shows the rows counted.
 *
 * A filter value may be an instant relative to the moment of counting: 'now', 'now+24h', 'now+7d' (hours or days).
 * Date filters keep the engine's own relative days ('today', '+30d'), which the list resolves on the agency's clock.
 */

export interface NeedsDoingItem {
  id: string;
  /** The declared resource counted; its list permission decides whether the caller sees the item. */
  resource: string;
  /** One of the resource's tabs (its filter applies, and its route is the list's). */
  tab?: string;
  /** More list filters, as the list's query string takes them (the declaration's filters, `_gte`/`_lte` ranges). */
  filter: Record<string, string>;
  /** A money field of the list's `listTotals` summed over the counted rows (overdue invoices' balance). */
  sum?: string;
  /** What is counted, after the number: one, many ("3 unfilled shifts …"); "No …" when none. */
  label: { one: string; many: string };
  /** The admin route of the list it opens (its tab's path). */
  route: string;
}

/** A relative instant in a queue item's filter: now, or now plus hours or days. */
const RELATIVE_INSTANT = /^now(?:([+-])(\d{1,4})([hd]))?$/;

/** An item's filter with its relative instants as ISO instants of `now` (other values as declared). */
export function resolveQueueFilter(filter: Record<string, string>, now: Date): Record<string, string> {
  return Object.fromEntries(
    Object.entries(filter).map(([k, v]) => {
      const m = RELATIVE_INSTANT.exec(v);
      if (!m) return [k, v];
      const n = m[1] ? Number(m[2]) * (m[3] === 'h' ? 3_600_000 : 86_400_000) * (m[1] === '-' ? -1 : 1) : 0;
      return [k, new Date(now.getTime() + n).toISOString()];
    }),
  );
}

/** The queue, in the order the dashboard shows it. */
export const NEEDS_DOING: readonly NeedsDoingItem[] = [
  {
    id: 'unfilled_24h',
    resource: 'shifts',
    tab: 'open',
    filter: { start_at_gte: 'now', start_at_lte: 'now+24h' },
    label: { one: 'unfilled shift in the next 24 hours', many: 'unfilled shifts in the next 24 hours' },
    route: '/shift-list/open',
  },
  {
    id: 'unfilled_7d',
    resource: 'shifts',
    tab: 'open',
    filter: { start_at_gte: 'now', start_at_lte: 'now+7d' },
    label: { one: 'unfilled shift in the next 7 days', many: 'unfilled shifts in the next 7 days' },
    route: '/shift-list/open',
  },
  // A client's request is an open shift they asked for: answered once someone is booked (or it is cancelled).
  {
    id: 'client_requests',
    resource: 'shifts',
    tab: 'open',
    filter: { requested_by_client: 'true', start_at_gte: 'now' },
    label: {
      one: 'shift requested by a client awaiting an answer',
      many: 'shifts requested by clients awaiting an answer',
    },
    route: '/shift-list/open',
  },
  // A staff member's request for an open shift (their phone page), not yet accepted or declined.
  {
    id: 'staff_requests',
    resource: 'shift_requests',
    filter: { status: 'pending' },
    label: {
      one: 'shift request from staff awaiting an answer',
      many: 'shift requests from staff awaiting an answer',
    },
    route: '/shift_requests',
  },
  {
    id: 'staff_pending',
    resource: 'candidates',
    tab: 'pendingStaff',
    filter: {},
    label: { one: 'staff member awaiting approval', many: 'staff awaiting approval' },
    route: '/staffs/pendingStaff',
  },
  {
    id: 'documents_expired',
    resource: 'candidate_documents',
    tab: 'ExpiredDoc',
    filter: { booked_soon: 'true' },
    label: {
      one: `expired document of staff booked in the next ${BOOKED_WITHIN_DAYS} days`,
      many: `expired documents of staff booked in the next ${BOOKED_WITHIN_DAYS} days`,
    },
    route: '/report/DocumentReport/ExpiredDoc',
  },
  {
    id: 'documents_expiring',
    resource: 'candidate_documents',
    tab: 'DueDoc',
    filter: { booked_soon: 'true' },
    label: {
      one: `document expiring within ${DUE_WITHIN_DAYS} days, of staff booked in the next ${BOOKED_WITHIN_DAYS} days`,
      many: `documents expiring within ${DUE_WITHIN_DAYS} days, of staff booked in the next ${BOOKED_WITHIN_DAYS} days`,
    },
    route: '/report/DocumentReport/DueDoc',
  },
  {
    id: 'timesheets_unsigned',
    resource: 'timesheets',
    tab: 'awaiting',
    filter: { submitted_at_lte: `now-${AWAITING_SIGNATURE_DAYS}d` },
    label: {
      one: `timesheet awaiting signature for more than ${AWAITING_SIGNATURE_DAYS} days`,
      many: `timesheets awaiting signature for more than ${AWAITING_SIGNATURE_DAYS} days`,
    },
    route: '/timesheet/awaiting',
  },
  {
    id: 'disputed_lines',
    resource: 'timesheet_lines',
    filter: { status: 'disputed' },
    label: { one: 'disputed timesheet line', many: 'disputed timesheet lines' },
    route: '/timesheet_lines',
  },
  {
    id: 'invoice_drafts',
    resource: 'invoices',
    tab: 'draft',
    filter: {},
    label: { one: 'invoice draft waiting to be issued', many: 'invoice drafts waiting to be issued' },
    route: '/invoice/client-invoice/draft',
  },
  {
    id: 'invoices_overdue',
    resource: 'invoices',
    tab: 'overdue',
    filter: {},
    sum: 'balance',
    label: { one: 'overdue invoice', many: 'overdue invoices' },
    route: '/invoice/client-invoice/overdue',
  },
  // Due: drafted and not yet finalised (draft or approved); the list of every run, narrowed to those two states.
  {
    id: 'pay_runs_due',
    resource: 'pay_runs',
    filter: { state: 'draft,approved' },
    label: { one: 'pay run due (draft or approved)', many: 'pay runs due (draft or approved)' },
    route: '/invoice/staff-payroll',
  },
  {
    id: 'diary_today',
    resource: 'diary_notes',
    tab: 'today',
    filter: {},
    label: { one: 'diary note today', many: 'diary notes today' },
    route: '/dairy_notes/today',
  },
];

/** The sentence a count reads as: "3 unfilled shifts in the next 24 hours", "No staff awaiting approval". */
export const queueSentence = (item: Pick<NeedsDoingItem, 'label'>, count: number) =>
  count === 0 ? `No ${item.label.many}` : `${count} ${count === 1 ? item.label.one : item.label.many}`;
