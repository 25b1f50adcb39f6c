// Whether a staff member holds every document their work requires. Plain functions: the documents hook and the
// activate action call them, the profile shows their result, and the staff list filters on what they store.
import { daysBetween, formatDisplayDate } from '../time/agencyTime';
import { DUE_WITHIN_DAYS, expiryState, type DocumentStatus } from './documents';

export interface ComplianceCategory {
  id: number;
  name: string;
  /** Required of every staff member. */
  mandatory: boolean;
  /** Required of staff holding one of these job roles. */
  job_role_ids: number[];
}

export interface ComplianceDocument {
  id: number;
  document_category_id: number;
  status: DocumentStatus;
  expiry_date: string | null;
  /** Replaced by a newer upload: kept for the history, never counted. */
  superseded: boolean;
}

/** A required category whose counting document has an expiry worth mentioning. */
export interface ExpiryNote<C extends ComplianceCategory = ComplianceCategory> {
  category: C;
  expiry: string;
  /** 0 on the expiry day, negative once expired. */
  daysLeft: number;
}

export interface ComplianceResult<C extends ComplianceCategory = ComplianceCategory> {
  /** Every required category has a verified, unexpired current document. */
  compliant: boolean;
  /** Required categories with no verified current document (none at all, only awaiting check, or only rejected). */
  missing: C[];
  /** Required categories whose verified document has expired (expiry < today), soonest expired first. */
  expired: ExpiryNote<C>[];
  /** Required categories whose verified document is due (expires within dueWithinDays, today included), soonest
   * first. They still count as compliant. */
  expiring: ExpiryNote<C>[];
  /** The earliest expiry among the documents that count; null when none of them expires. Independent of today. */
  validUntil: string | null;
  /** Every required category has a verified current document, whatever its dates. Independent of today. */
  complete: boolean;
}

/** The categories a staff member must hold: the mandatory ones, and those tied to their job role. */
export function requiredCategories<C extends ComplianceCategory>(categories: C[], jobRoleId: number | null): C[] {
  return categories.filter((c) => c.mandatory || (jobRoleId !== null && c.job_role_ids.includes(jobRoleId)));
}

/**
 * The document that counts for a category: a current (not superseded) verified one. There should be only one;
 * if there are several, the one lasting longest counts (no expiry beats any date). Undefined when there is none.
 */
export function countingDocument<D extends ComplianceDocument>(documents: D[], categoryId: number): D | undefined {
  let best: D | undefined;
  for (const d of documents) {
    if (d.document_category_id !== categoryId || d.superseded || d.status !== 'verified') continue;
    if (!best || lastsLonger(d.expiry_date, best.expiry_date)) best = d;
  }
  return best;
}

const lastsLonger = (a: string | null, b: string | null) => b !== null && (a === null || a > b);

/**
 * The other current documents a document replaces (they leave the current set and stay in the history), when it is
 * uploaded and again when it is verified. A verified document replaces every other current one of its category.
 * One not verified yet (awaiting its check, or rejected) replaces only the other unverified ones: a verified document
 * keeps counting beside it until the agency verifies the new one, or until it expires (then the staff member needs
 * their renewal checked). So uploading a renewal early never stops a worker being booked (issue 30.2).
 */
export function replacedDocuments<D extends Pick<ComplianceDocument, 'id' | 'document_category_id' | 'status'>>(
  doc: Pick<ComplianceDocument, 'id' | 'document_category_id' | 'status'>,
  current: D[],
): D[] {
  return current.filter(
    (d) =>
      d.id !== doc.id &&
      d.document_category_id === doc.document_category_id &&
      (doc.status === 'verified' || d.status !== 'verified'),
  );
}

export function assessCompliance<C extends ComplianceCategory>(input: {
  jobRoleId: number | null;
  categories: C[];
  documents: ComplianceDocument[];
  today: string;
  dueWithinDays?: number;
}): ComplianceResult<C> {
  const { jobRoleId, categories, documents, today, dueWithinDays = DUE_WITHIN_DAYS } = input;
  const missing: C[] = [];
  const expired: ExpiryNote<C>[] = [];
  const expiring: ExpiryNote<C>[] = [];
  let validUntil: string | null = null;

  for (const category of requiredCategories(categories, jobRoleId)) {
    const doc = countingDocument(documents, category.id);
    if (!doc) {
      missing.push(category);
      continue;
    }
    const expiry = doc.expiry_date;
    if (expiry === null) continue;
    // Expired ones count towards validUntil too: that is what makes isCompliantOn agree with `compliant`.
    if (validUntil === null || expiry < validUntil) validUntil = expiry;
    const state = expiryState(expiry, today, dueWithinDays);
    const note = { category, expiry, daysLeft: daysBetween(today, expiry) };
    if (state === 'expired') expired.push(note);
    else if (state === 'due') expiring.push(note);
  }

  const byExpiry = (a: ExpiryNote<C>, b: ExpiryNote<C>) => (a.expiry < b.expiry ? -1 : a.expiry > b.expiry ? 1 : 0);
  expired.sort(byExpiry);
  expiring.sort(byExpiry);
  return {
    compliant: missing.length === 0 && expired.length === 0,
    missing,
    expired,
    expiring,
    validUntil,
    complete: missing.length === 0,
  };
}

/**
 * Compliance on a date from the two values stored per staff member, so a list can filter "compliant today" in
 * SQL as `compliance_complete AND (compliance_valid_until IS NULL OR compliance_valid_until >= :today)`.
 * Equal to assessCompliance(...).compliant for that date (a property test holds the two together).
 */
export function isCompliantOn(complete: boolean, validUntil: string | null, date: string): boolean {
  return complete && (validUntil === null || validUntil >= date);
}

/** Short English sentences for a screen or an error message, e.g.
 * "Missing: DBS certificate, Right to work. Expired: Manual handling training (expired 3 Nov 2026)." */
export function describeCompliance(result: ComplianceResult): string {
  const sentences: string[] = [];
  if (result.compliant) {
    sentences.push(result.validUntil ? `Compliant until ${formatDisplayDate(result.validUntil)}.` : 'Compliant.');
  }
  if (result.missing.length > 0) {
    sentences.push(`Missing: ${result.missing.map((c) => c.name).join(', ')}.`);
  }
  if (result.expired.length > 0) {
    const items = result.expired.map((n) => `${n.category.name} (expired ${formatDisplayDate(n.expiry)})`);
    sentences.push(`Expired: ${items.join(', ')}.`);
  }
  if (result.expiring.length > 0) {
    const items = result.expiring.map((n) => `${n.category.name} (${describeDaysLeft(n)})`);
    sentences.push(`Expiring soon: ${items.join(', ')}.`);
  }
  return sentences.join(' ');
}

function describeDaysLeft(n: ExpiryNote): string {
  const on = formatDisplayDate(n.expiry);
  if (n.daysLeft === 0) return `expires today, ${on}`;
  return `expires ${on}, in ${n.daysLeft} ${n.daysLeft === 1 ? 'day' : 'days'}`;
}

/** A staff member's compliance as the staff list states it: every document valid, one due within 30 days, or not. */
export type ComplianceState = 'compliant' | 'expiring' | 'not_compliant';

/**
 * A staff member's compliance on a past day, rebuilt from their documents' history: each verified version counts from
 * the day it is valid from (its issue date, or its upload when it has none) to its expiry, so a renewal issued later
 * does not count yet and a version replaced since still does, as it did then; judged on that day by the same rule as
 * today's state (assessCompliance). The job role and the categories required are today's: the product keeps no
 * history of them.
 */
export function complianceOn<C extends ComplianceCategory>(input: {
  jobRoleId: number | null;
  categories: C[];
  documents: (ComplianceDocument & { valid_from: string })[];
  date: string;
}): ComplianceState {
  const held = input.documents.filter((d) => d.valid_from <= input.date).map((d) => ({ ...d, superseded: false }));
  const r = assessCompliance({
    jobRoleId: input.jobRoleId,
    categories: input.categories,
    documents: held,
    today: input.date,
  });
  return !r.compliant ? 'not_compliant' : r.expiring.length ? 'expiring' : 'compliant';
}
