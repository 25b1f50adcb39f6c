// Rules for one staff document's dates, and the document report's views. Plain functions on 'yyyy-MM-dd' dates;
// "today" is always the agency's today (agencyToday), passed in, never read from the clock here.
import { addDaysToDate, addMonthsToDate, daysBetween } from '../time/agencyTime';

export const DOCUMENT_STATUSES = ['awaiting', 'verified', 'rejected'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** How many days ahead an expiry counts as due (the report's DueDoc and the profile's "expiring"). */
export const DUE_WITHIN_DAYS = 30;
/** How many days ahead a booking makes a staff member's documents urgent (the dashboard's "Needs doing"). */
export const BOOKED_WITHIN_DAYS = 14;

export type ExpiryState = 'valid' | 'due' | 'expired' | 'no_expiry';

/** The expiry a new document gets by default: its issue date plus the category's validity, clamped to the end
 * of a shorter month (2025-01-31 + 1 month = 2025-02-28). A category with no validity never expires: null. */
export function defaultExpiry(issueDate: string, validityMonths: number | null): string | null {
  if (validityMonths === null) return null;
  return addMonthsToDate(issueDate, validityMonths);
}

/** Days from today to the expiry: 0 on the expiry day, negative once expired; null when it never expires. */
export function daysLeft(expiry: string, today: string): number;
export function daysLeft(expiry: string | null, today: string): number | null;
export function daysLeft(expiry: string | null, today: string): number | null {
  return expiry === null ? null : daysBetween(today, expiry);
}

/**
 * A document is good through its expiry day and expired from the day after (expired: expiry < today).
 * It is due when it expires within the next `dueWithinDays` days, today included (today ≤ expiry ≤
 * today + dueWithinDays): so on its last day a document is 'due', not yet 'expired'.
 */
export function expiryState(expiry: string | null, today: string, dueWithinDays = DUE_WITHIN_DAYS): ExpiryState {
  if (expiry === null) return 'no_expiry';
  const left = daysBetween(today, expiry);
  if (left < 0) return 'expired';
  return left <= dueWithinDays ? 'due' : 'valid';
}

export type DocumentReportViewKey = 'AllDoc' | 'ActiveDocument' | 'DueDoc' | 'ExpiredDoc' | 'DueDoc60Days';

/**
 * One view of the document report, as data the engine turns into a WHERE clause. Every view covers current
 * documents only (not superseded by a replacement); a replaced document stays in the staff member's history.
 */
export interface DocumentReportView {
  key: DocumentReportViewKey;
  label: string;
  /** Only documents in this status; null for any status. */
  status: DocumentStatus | null;
  /**
   * Expiry between today + fromDays and today + toDays, both ends inclusive; a null end is open. `orNoExpiry`
   * also admits documents that never expire. A null `expiry` puts no condition on the expiry at all.
   */
  expiry: { fromDays: number | null; toDays: number | null; orNoExpiry: boolean } | null;
}

export const DOCUMENT_REPORT_VIEWS: readonly DocumentReportView[] = [
  { key: 'AllDoc', label: 'All documents', status: null, expiry: null },
  // In force: checked, and not past its expiry.
  {
    key: 'ActiveDocument',
    label: 'Active documents',
    status: 'verified',
    expiry: { fromDays: 0, toDays: null, orNoExpiry: true },
  },
  {
    key: 'DueDoc',
    label: 'Due within 30 days',
    status: null,
    expiry: { fromDays: 0, toDays: DUE_WITHIN_DAYS, orNoExpiry: false },
  },
  // expiry < today, i.e. expiry ≤ today - 1.
  { key: 'ExpiredDoc', label: 'Expired', status: null, expiry: { fromDays: null, toDays: -1, orNoExpiry: false } },
  {
    key: 'DueDoc60Days',
    label: 'Due within 60 days',
    status: null,
    expiry: { fromDays: 0, toDays: 60, orNoExpiry: false },
  },
];

export function documentReportView(key: string): DocumentReportView | undefined {
  return DOCUMENT_REPORT_VIEWS.find((v) => v.key === key);
}

/** A view's filter with today filled in: concrete dates for the query's parameters. */
export interface ResolvedDocumentReportFilter {
  status: DocumentStatus | null;
  /** null: no condition on the expiry. */
  expiry: { from: string | null; to: string | null; orNoExpiry: boolean } | null;
}

export function resolveDocumentReportView(view: DocumentReportView, today: string): ResolvedDocumentReportFilter {
  const e = view.expiry;
  return {
    status: view.status,
    expiry: e && {
      from: e.fromDays === null ? null : addDaysToDate(today, e.fromDays),
      to: e.toDays === null ? null : addDaysToDate(today, e.toDays),
      orNoExpiry: e.orNoExpiry,
    },
  };
}

/** Whether a document belongs in a view today: the same rule the engine's query applies, for in-memory use
 * and as its specification in tests. */
export function matchesDocumentReportView(
  view: DocumentReportView,
  doc: { status: DocumentStatus; expiry_date: string | null; superseded: boolean },
  today: string,
): boolean {
  if (doc.superseded) return false;
  const f = resolveDocumentReportView(view, today);
  if (f.status !== null && doc.status !== f.status) return false;
  if (f.expiry === null) return true;
  if (doc.expiry_date === null) return f.expiry.orNoExpiry;
  // 'yyyy-MM-dd' strings compare in date order.
  const { from, to } = f.expiry;
  return (from === null || doc.expiry_date >= from) && (to === null || doc.expiry_date <= to);
}
