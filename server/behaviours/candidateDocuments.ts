import type { ResourceBehaviour } from '../engine/context.js';
import { textOf } from '../../core/engine/types.js';
import {
  BOOKED_WITHIN_DAYS,
  defaultExpiry,
  DUE_WITHIN_DAYS,
  type DocumentStatus,
} from '../../core/domain/compliance/documents.js';
import { replacedDocuments } from '../../core/domain/compliance/compliance.js';
import { fileNameSql } from '../files/store.js';
import { refreshCompliance } from '../services/compliance.js';

/**
 * The staff member is booked on a shift (assigned, not deleted) that starts from now to BOOKED_WITHIN_DAYS days
 * ahead: one probe of shifts_candidate_id (merchant, candidate, start) per document.
 */
const bookedSoon = `exists (select 1 from shifts s where s.merchant_id = candidate_documents.merchant_id
  and s.candidate_id = candidate_documents.candidate_id and s.status = 'assigned' and s.deleted_at is null
  and s.start_at >= now() and s.start_at < now() + interval '${BOOKED_WITHIN_DAYS} days')`;

export const candidateDocumentsBehaviour: ResourceBehaviour = {
  computedFilters: {
    booked_soon: (value) => (value === 'true' || value === '1' ? bookedSoon : `not ${bookedSoon}`),
  },
  computed: {
    booked_soon: () => bookedSoon,
    expiry_state: (bind, { today }) => {
      const t = bind(today);
      return `case when expiry_date is null then 'no_expiry' when expiry_date < ${t}::date then 'expired' when expiry_date <= ${t}::date + ${DUE_WITHIN_DAYS} then 'due' else 'valid' end`;
    },
    days_left: (bind, { today }) => `expiry_date - ${bind(today)}::date`,
    file_name: () => fileNameSql('candidate_documents', 'file'),
    category_name: () =>
      `(select k.name from document_categories k where k.merchant_id = candidate_documents.merchant_id and k.id = candidate_documents.document_category_id)`,
  },
  async beforeSave(ctx, { record }) {
    // The expiry defaults to the issue date plus the category's validity.
    if (!record.expiry_date && record.issue_date) {
      const [cat] = await ctx.db.query<{ validity_months: number | null }>(
        'select validity_months from document_categories where id = $1 and merchant_id = $2',
        [record.document_category_id, ctx.principal.merchantId],
      );
      record.expiry_date = defaultExpiry(textOf(record.issue_date), cat?.validity_months ?? null);
    }
    if (record.issue_date && record.expiry_date && record.expiry_date < record.issue_date)
      return { expiry_date: { message: 'app.documents.expiry_before_issue' } };
  },
  async afterSave(ctx, { stored, row, action }) {
    // A new upload replaces the current documents of its category that it may (replacedDocuments: never a verified
    // one while it awaits its check), and a verification replaces the rest; they stay in the history.
    if (!stored || action === 'verify') {
      const current = await ctx.db.query<{ id: number; document_category_id: number; status: DocumentStatus }>(
        `select id, document_category_id, status from candidate_documents
          where merchant_id = $1 and candidate_id = $2 and document_category_id = $3 and id <> $4 and current and deleted_at is null order by id`,
        [ctx.principal.merchantId, row.candidate_id, row.document_category_id, row.id],
      );
      for (const old of replacedDocuments(
        row as { id: number; document_category_id: number; status: DocumentStatus },
        current,
      ))
        await ctx.engine.update(
          'candidate_documents',
          old.id,
          { current: false },
          { reason: `Replaced by document ${row.id}` },
        );
    }
    await refreshCompliance(ctx.db, ctx.principal.merchantId, [Number(row.candidate_id)]);
  },
  async afterDelete(ctx, row) {
    await refreshCompliance(ctx.db, ctx.principal.merchantId, [Number(row.candidate_id)]);
  },
};
