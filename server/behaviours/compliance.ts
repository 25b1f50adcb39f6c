import type { Row } from '../db/index.js';
import { writeAudit } from '../engine/audit.js';
import { HttpError } from '../http.js';
import type { EngineContext, ResourceBehaviour } from '../engine/context.js';
import { describeCompliance } from '../../core/domain/compliance/compliance.js';
import { defaultExpiry, DUE_WITHIN_DAYS } from '../../core/domain/compliance/documents.js';
import { notify } from '../notifications/notify.js';
import { endSessionsOfStaff, staffMaySignIn } from '../auth/sessions.js';
import { fileNameSql } from '../files/store.js';
import { complianceOf, refreshCompliance } from '../services/compliance.js';

/** Compliance today, from the two stored values: compliant, compliant with a document due soon, or not. */
const complianceExpression = (bind: (v: unknown) => string, { today }: { today: string }) => {
  const t = bind(today);
  return `case when not compliance_complete then 'not_compliant'
    when compliance_valid_until is null or compliance_valid_until > ${t}::date + ${DUE_WITHIN_DAYS} then 'compliant'
    when compliance_valid_until >= ${t}::date then 'expiring' else 'not_compliant' end`;
};

/**
 * The same three states as conditions on the stored columns, so the staff list keeps walking its name index
 * when filtered by compliance (comparing the CASE expression would read every active staff member).
 */
const complianceFilters: Record<string, (bind: (v: unknown) => string, today: string) => string> = {
  compliant: (bind, today) => `compliance_complete and (compliance_valid_until is null or compliance_valid_until > ${bind(today)}::date + ${DUE_WITHIN_DAYS})`,
  expiring: (bind, today) => `compliance_complete and compliance_valid_until between ${bind(today)}::date and ${bind(today)}::date + ${DUE_WITHIN_DAYS}`,
  not_compliant: (bind, today) => `(not compliance_complete or compliance_valid_until < ${bind(today)}::date)`,
};

/** A new staff member awaits approval: the agency hears of it (issue 9's events). */
async function notifyStaffRegistered(ctx: EngineContext, row: Row) {
  const name = `${row.first_name} ${row.last_name}`;
  await notify(ctx.db, {
    merchantId: ctx.principal.merchantId,
    event: 'staff.registered',
    title: 'New staff member registered',
    body: `${name} registered and awaits approval.`,
    link: `/staffs/${row.id}`,
    audience: { agency: true },
    data: { staff_name: name, email: row.email ?? '' },
  });
}

export const candidatesBehaviour: ResourceBehaviour = {
  computed: { compliance: complianceExpression },
  computedFilters: { compliance: (value, bind, { today }) => complianceFilters[value](bind, today) },
  async afterSave(ctx, { stored, row }) {
    if (!stored) await notifyStaffRegistered(ctx, row);
    // Rejected or deactivated (by any action or write): their staff login's sessions end at once, everywhere.
    if (stored && staffMaySignIn(stored) && !staffMaySignIn(row)) await endSessionsOfStaff(ctx.db, ctx.cluster, ctx.principal.merchantId, row.id);
    if (stored && stored.job_role_id === row.job_role_id) return false;
    // A new job role may require other documents: the stored compliance changes with it.
    await refreshCompliance(ctx.db, ctx.principal.merchantId, [row.id]);
    return true;
  },
  async afterDelete(ctx, row) {
    await endSessionsOfStaff(ctx.db, ctx.cluster, ctx.principal.merchantId, row.id);
  },
  actions: {
    /** A staff member who is not compliant for their role is activated only by an admin who gives a reason. */
    async activate(ctx: EngineContext, record: Row, input: Record<string, any>) {
      const result = await complianceOf(ctx.db, ctx.principal.merchantId, { id: record.id, job_role_id: record.job_role_id }, ctx.today);
      if (result.compliant) return;
      const why = describeCompliance(result);
      if (ctx.principal.role !== 'admin') throw new HttpError(422, `${record.first_name} ${record.last_name} is not compliant. ${why} Only an admin can activate them anyway.`, { override_reason: `Not compliant. ${why}` });
      if (!input.override_reason) throw new HttpError(422, `${record.first_name} ${record.last_name} is not compliant. ${why} Give a reason to activate them anyway.`, { override_reason: `Not compliant. ${why} Give a reason to activate anyway.` });
    },
  },
};

export const documentsBehaviour: ResourceBehaviour = {
  computed: {
    expiry_state: (bind, { today }) => {
      const t = bind(today);
      return `case when expiry_date is null then 'no_expiry' when expiry_date < ${t}::date then 'expired' when expiry_date <= ${t}::date + ${DUE_WITHIN_DAYS} then 'due' else 'valid' end`;
    },
    days_left: (bind, { today }) => `expiry_date - ${bind(today)}::date`,
    file_name: () => fileNameSql('candidate_documents', 'file'),
  },
  async beforeSave(ctx, { record }) {
    // The expiry defaults to the issue date plus the category's validity.
    if (!record.expiry_date && record.issue_date) {
      const [cat] = await ctx.db.query<{ validity_months: number | null }>('select validity_months from document_categories where id = $1 and merchant_id = $2', [record.document_category_id, ctx.principal.merchantId]);
      record.expiry_date = defaultExpiry(record.issue_date, cat?.validity_months ?? null);
    }
    if (record.issue_date && record.expiry_date && record.expiry_date < record.issue_date) return { expiry_date: { message: 'app.documents.expiry_before_issue' } };
  },
  async afterSave(ctx, { stored, row }) {
    // A new upload replaces the current document of its category; the old one stays in the history.
    if (!stored) {
      const replaced = await ctx.db.query(
        `update candidate_documents set current = false, version = version + 1, updated_at = now()
          where merchant_id = $1 and candidate_id = $2 and document_category_id = $3 and id <> $4 and current and deleted_at is null returning id`,
        [ctx.principal.merchantId, row.candidate_id, row.document_category_id, row.id],
      );
      for (const old of replaced) {
        await writeAudit(ctx.db, ctx.principal, {
          resource: 'candidate_documents', recordId: old.id, subject: { resource: 'candidates', id: Number(row.candidate_id) }, event: 'update',
          changes: { current: { from: true, to: false } }, input: { reason: `Replaced by document ${row.id}` },
        });
      }
    }
    await refreshCompliance(ctx.db, ctx.principal.merchantId, [row.candidate_id]);
  },
  async afterDelete(ctx, row) {
    await refreshCompliance(ctx.db, ctx.principal.merchantId, [row.candidate_id]);
  },
};

export const documentCategoriesBehaviour: ResourceBehaviour = {
  async afterSave(ctx, { stored, row }) {
    const same = stored && stored.mandatory === row.mandatory && JSON.stringify(stored.job_role_ids) === JSON.stringify(row.job_role_ids);
    if (!same) await refreshCompliance(ctx.db, ctx.principal.merchantId);
  },
  async afterDelete(ctx) {
    await refreshCompliance(ctx.db, ctx.principal.merchantId);
  },
};

export const restrictionsBehaviour: ResourceBehaviour = {
  computed: {
    // The staff member's future bookings the restriction covers: the screen offers to unassign them (the shifts'
    // bulk unassign, which tells the staff member); bookings from now on are refused by the booking checks.
    affected_shifts: () => `(select coalesce(json_agg(json_build_object('id', s.id, 'start_at', s.start_at, 'end_at', s.end_at, 'site', si.name) order by s.start_at, s.id), '[]'::json)
      from shifts s join sites si on si.merchant_id = s.merchant_id and si.id = s.site_id
     where s.merchant_id = candidate_restrictions.merchant_id and s.candidate_id = candidate_restrictions.candidate_id
       and s.client_id = candidate_restrictions.client_id and (candidate_restrictions.site_id is null or s.site_id = candidate_restrictions.site_id)
       and s.status = 'assigned' and s.deleted_at is null and s.start_at > now())`,
  },
  async beforeSave(ctx, { stored, record }) {
    if (!stored) record.recorded_by = ctx.principal.name;
  },
};

// A day's availability is unique per staff member: declared (uniqueTogether), nothing left to do here.
export const availabilityBehaviour: ResourceBehaviour = {};
