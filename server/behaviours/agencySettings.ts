// The agency's settings beyond their declaration (core/resources/settings/agency.ts).
import type { ResourceBehaviour } from '../engine/context.js';
import { forgetAgencyZone } from '../engine/routes.js';
import { badInput } from '../http.js';
import { installedPlans, planOf } from '../subscription/plans.js';
import { paymentDriver } from '../subscription/payment.js';
import { JOB_BOARD_SLUG_TAKEN, jobBoardSlugProblem } from '../../core/domain/agency/jobBoard.js';

/** The database's error for a value another row of a unique index has (PostgreSQL's and PGlite's alike). */
const isUniqueViolation = (e: unknown) => (e as { code?: string } | null)?.code === '23505';

/**
 * The trading name, time zone and logo are what the whole product reads from merchants (the sign-in, the e-mails'
 * sender, every request's "today", the letterhead), and the job board's address is where /careers/{slug} finds the
 * agency: copied there in the write's own transaction, so a save is seen everywhere at once and this row stays the one
 * place they are changed (PUT /api/merchants/:id writes through it too).
 * merchants.version moves with them: the account screen's stale check reads it.
 */
export const agencySettingsBehaviour: ResourceBehaviour = {
  /**
   * The job board's address, when changed: its shape and the reserved words (jobBoardSlugProblem), then whether
   * another agency's board is there, each refused next to the field. One the agency already has (an older agency's,
   * made by migration 123 from its name) is kept as it is, whatever its length.
   */
  async beforeSave(ctx, { record }) {
    const slug = record.slug === undefined || record.slug === null ? null : String(record.slug);
    const [current] = await ctx.db.query<{ slug: string | null }>('select slug from merchants where id = $1', [
      ctx.principal.merchantId,
    ]);
    if (slug === (current?.slug ?? null)) return;
    const problem = jobBoardSlugProblem(slug);
    if (problem) return { slug: { message: problem } };
    const [taken] = await ctx.db.query('select 1 from merchants where slug = $1 and id <> $2', [
      slug,
      ctx.principal.merchantId,
    ]);
    if (taken) return { slug: { message: JOB_BOARD_SLUG_TAKEN } };
  },
  async afterSave(ctx, { row }) {
    const m = ctx.principal.merchantId;
    const [before] = await ctx.db.query<{
      company_name: string;
      time_zone: string;
      profile_photo: string | null;
      slug: string | null;
    }>('select company_name, time_zone, profile_photo, slug from merchants where id = $1 for update', [m]);
    const name = String(row.company_name);
    const zone = String(row.time_zone);
    const logo = (row.profile_photo as string | null) ?? null;
    const slug = (row.slug as string | null) ?? null;
    if (
      before.company_name === name &&
      before.time_zone === zone &&
      before.profile_photo === logo &&
      before.slug === slug
    )
      return;
    try {
      await ctx.db.query(
        `update merchants set company_name = $2, time_zone = $3, profile_photo = $4, slug = $5, version = version + 1
          where id = $1`,
        [m, name, zone, logo, slug],
      );
    } catch (e) {
      // Another agency took the address between beforeSave's look and this write: the same refusal, not a 500.
      if (isUniqueViolation(e) && before.slug !== slug) throw badInput({ slug: JOB_BOARD_SLUG_TAKEN });
      throw e;
    }
    // The logo lives in one place (AGENCY_LOGO_SQL): an old agency_logos row would come back on removal.
    if (before.profile_photo !== logo)
      await ctx.db.query(`delete from agency_logos where merchant_id = $1 and logo_type = 'agency_logo'`, [m]);
    // This process reads the new zone at once; the others within the minute they keep it (agencyZone).
    if (before.time_zone !== zone) forgetAgencyZone(m);
  },
  actions: {
    /**
     * A change of plan (issue 35): one of the installation's plans, refused next to the field otherwise; paid for
     * through the installation's payment driver (the bundled one records it and charges nothing) before it is stored.
     * Moving to a plan the agency is already over is allowed: nothing is deactivated, the page warns, and the next
     * activation is refused.
     */
    async change_plan(ctx, record, input) {
      const to = installedPlans().plans.find((p) => p.id === input.plan);
      if (!to) throw badInput({ plan: 'Choose one of the plans offered.' });
      const from = planOf(record.plan as string | null);
      await paymentDriver().changePlan(ctx, { merchantId: ctx.principal.merchantId, from, to });
      return { plan: to.id };
    },
  },
};
