// Staff compliance from their documents, for the staff behaviours, the compliance routes and the demo seed alike.
import type { Queryable, Row } from '../db/index.js';
import {
  assessCompliance,
  complianceOn,
  type ComplianceState,
  type ComplianceCategory,
  type ComplianceDocument,
} from '../../core/domain/compliance/compliance.js';

/** The agency's document categories, as the compliance rules read them. */
export async function categoriesOf(db: Queryable, merchantId: number): Promise<ComplianceCategory[]> {
  return db.query<ComplianceCategory & Row>(
    'select id, name, mandatory, job_role_ids from document_categories where merchant_id = $1',
    [merchantId],
  );
}

async function documentsOf(db: Queryable, merchantId: number, candidateIds: number[]) {
  return db.query<ComplianceDocument & Row & { candidate_id: number }>(
    `select id, candidate_id, document_category_id, status, expiry_date, not current as superseded
       from candidate_documents where merchant_id = $1 and candidate_id = any($2) and deleted_at is null and current`,
    [merchantId, candidateIds],
  );
}

/** A staff member's compliance for their job role today: what is missing, expiring and expired. */
export async function complianceOf(
  db: Queryable,
  merchantId: number,
  candidate: { id: number; job_role_id: number | null },
  today: string,
) {
  const [categories, documents] = await Promise.all([
    categoriesOf(db, merchantId),
    documentsOf(db, merchantId, [candidate.id]),
  ]);
  return assessCompliance({ jobRoleId: candidate.job_role_id, categories, documents, today });
}

/**
 * Stores what the staff list filters on: whether every required document is verified, and the earliest expiry
 * among them. Both are independent of the date, so "compliant today" is a comparison with today in SQL.
 * Called by every write that can change them (a document, a staff member's job role, a category).
 */
export async function refreshCompliance(db: Queryable, merchantId: number, candidateIds?: number[]) {
  const candidates = await db.query<{ id: number; job_role_id: number | null }>(
    `select id, job_role_id from candidates where merchant_id = $1 and deleted_at is null${candidateIds ? ' and id = any($2)' : ''}`,
    candidateIds ? [merchantId, candidateIds] : [merchantId],
  );
  if (candidates.length === 0) return;
  const categories = await categoriesOf(db, merchantId);
  for (let i = 0; i < candidates.length; i += 1000) {
    const batch = candidates.slice(i, i + 1000);
    const docs = await documentsOf(
      db,
      merchantId,
      batch.map((c) => c.id),
    );
    const byCandidate = new Map<number, ComplianceDocument[]>();
    for (const d of docs) byCandidate.set(d.candidate_id, [...(byCandidate.get(d.candidate_id) ?? []), d]);
    // The stored values do not depend on today; any date gives the same complete/validUntil.
    const results = batch.map((c) => ({
      id: c.id,
      r: assessCompliance({
        jobRoleId: c.job_role_id,
        categories,
        documents: byCandidate.get(c.id) ?? [],
        today: '2000-01-01',
      }),
    }));
    await db.query(
      `update candidates c set compliance_complete = v.complete, compliance_valid_until = v.valid_until
         from unnest($2::int[], $3::boolean[], $4::date[]) as v(id, complete, valid_until)
        where c.merchant_id = $1 and c.id = v.id
          and (c.compliance_complete is distinct from v.complete or c.compliance_valid_until is distinct from v.valid_until)`,
      [merchantId, results.map((x) => x.id), results.map((x) => x.r.complete), results.map((x) => x.r.validUntil)],
    );
  }
}

/**
 * The staff members' compliance on a past day (complianceOn): from every verified version of their documents, current
 * or replaced since, each valid from its issue date (or its upload's day on the agency's clock when it has none).
 */
export async function complianceOnDay(
  db: Queryable,
  merchantId: number,
  candidates: { id: number; job_role_id: number | null }[],
  date: string,
  timeZone: string,
): Promise<Map<number, ComplianceState>> {
  const [categories, documents] = await Promise.all([
    categoriesOf(db, merchantId),
    db.query<ComplianceDocument & Row & { candidate_id: number; valid_from: string }>(
      `select id, candidate_id, document_category_id, status, expiry_date::text as expiry_date, false as superseded,
              coalesce(issue_date::text, to_char(created_at at time zone $3, 'YYYY-MM-DD')) as valid_from
         from candidate_documents where merchant_id = $1 and candidate_id = any($2::int[]) and deleted_at is null
          and status = 'verified'`,
      [merchantId, candidates.map((c) => c.id), timeZone],
    ),
  ]);
  const byCandidate = new Map<number, (ComplianceDocument & { valid_from: string })[]>();
  for (const d of documents)
    byCandidate.set(Number(d.candidate_id), [...(byCandidate.get(Number(d.candidate_id)) ?? []), d]);
  return new Map(
    candidates.map((c) => [
      c.id,
      complianceOn({ jobRoleId: c.job_role_id, categories, documents: byCandidate.get(c.id) ?? [], date }),
    ]),
  );
}
