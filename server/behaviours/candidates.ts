import type { Row } from '../db/index.js';
import type { RecordValues } from '../../core/engine/types.js';
import { HttpError } from '../http.js';
import type { EngineContext, ResourceBehaviour } from '../engine/context.js';
import { describeCompliance } from '../../core/domain/compliance/compliance.js';
import { DUE_WITHIN_DAYS } from '../../core/domain/compliance/documents.js';
import { notify } from '../notifications/notify.js';
import { endSessionsOfStaff, staffMaySignIn } from '../auth/sessions.js';
import { complianceOf, refreshCompliance } from '../services/compliance.js';
import { resealBankDetails, sealBankDetails } from '../services/bankDetails.js';
import { refuseOverLimit } from '../subscription/usage.js';

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
  compliant: (bind, today) =>
    `compliance_complete and (compliance_valid_until is null or compliance_valid_until > ${bind(today)}::date + ${DUE_WITHIN_DAYS})`,
  expiring: (bind, today) =>
    `compliance_complete and compliance_valid_until between ${bind(today)}::date and ${bind(today)}::date + ${DUE_WITHIN_DAYS}`,
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
  computed: {
    compliance: complianceExpression,
    // Accrued less taken on the payslips of approved and finalised runs (a draft may still change): issue 33.
    holiday_balance_hours: () => `(select coalesce(sum(p.holiday_hours_accrued - p.holiday_hours_taken), 0)
        from payslips p join pay_runs r on r.merchant_id = p.merchant_id and r.id = p.pay_run_id
       where p.merchant_id = candidates.merchant_id and p.candidate_id = candidates.id
         and r.state in ('approved', 'finalised'))`,
  },
  computedFilters: { compliance: (value, bind, { today }) => complianceFilters[value](bind, today) },
  async afterSave(ctx, { stored, row }) {
    // Activated (or created active) beyond the plan's active staff: refused whoever writes (issue 35).
    await refuseOverLimit(ctx, 'active_staff', stored, row);
    if (!stored) await notifyStaffRegistered(ctx, row);
    // Rejected or deactivated (by any action or write): their staff login's sessions end at once, everywhere.
    if (stored && staffMaySignIn(stored) && !staffMaySignIn(row))
      await endSessionsOfStaff(ctx.db, ctx.cluster, ctx.principal.merchantId, Number(row.id));
    if (stored && stored.job_role_id === row.job_role_id) return false;
    // A new job role may require other documents: the stored compliance changes with it.
    await refreshCompliance(ctx.db, ctx.principal.merchantId, [Number(row.id)]);
    return true;
  },
  async afterDelete(ctx, row) {
    await endSessionsOfStaff(ctx.db, ctx.cluster, ctx.principal.merchantId, Number(row.id));
  },
  actions: {
    /** Bank details, sealed: the row keeps them encrypted and their last digits (issue 33). */
    set_bank_details: async (ctx, record, input) => sealBankDetails(ctx, record, input),
    /** The same details sealed under the process's key (a rotation's job). */
    reseal_bank_details: async (ctx, record) => resealBankDetails(ctx, record),
    /** A staff member who is not compliant for their role is activated only by an admin who gives a reason. */
    async activate(ctx: EngineContext, record: Row, input: RecordValues) {
      const result = await complianceOf(
        ctx.db,
        ctx.principal.merchantId,
        { id: record.id, job_role_id: record.job_role_id },
        ctx.today,
      );
      if (result.compliant) return;
      const why = describeCompliance(result);
      if (ctx.principal.role !== 'admin')
        throw new HttpError(
          422,
          `${record.first_name} ${record.last_name} is not compliant. ${why} Only an admin can activate them anyway.`,
          { override_reason: `Not compliant. ${why}` },
        );
      if (!input.override_reason)
        throw new HttpError(
          422,
          `${record.first_name} ${record.last_name} is not compliant. ${why} Give a reason to activate them anyway.`,
          { override_reason: `Not compliant. ${why} Give a reason to activate anyway.` },
        );
    },
  },
};
