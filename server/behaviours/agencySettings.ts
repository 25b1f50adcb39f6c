// The agency's settings beyond their declaration (core/resources/settings/agency.ts).
import type { ResourceBehaviour } from '../engine/context.js';
import { forgetAgencyZone } from '../engine/routes.js';

/**
 * The trading name, time zone and logo are what the whole product reads from merchants (the sign-in, the e-mails'
 * sender, every request's "today", the letterhead): copied there in the write's own transaction, so a save is seen
 * everywhere at once and this row stays the one place they are changed (PUT /api/merchants/:id writes through it too).
 * merchants.version moves with them: the account screen's stale check reads it.
 */
export const agencySettingsBehaviour: ResourceBehaviour = {
  async afterSave(ctx, { row }) {
    const m = ctx.principal.merchantId;
    const [before] = await ctx.db.query<{ company_name: string; time_zone: string; profile_photo: string | null }>(
      'select company_name, time_zone, profile_photo from merchants where id = $1 for update',
      [m],
    );
    const name = String(row.company_name);
    const zone = String(row.time_zone);
    const logo = (row.profile_photo as string | null) ?? null;
    if (before.company_name === name && before.time_zone === zone && before.profile_photo === logo) return;
    await ctx.db.query(
      `update merchants set company_name = $2, time_zone = $3, profile_photo = $4, version = version + 1 where id = $1`,
      [m, name, zone, logo],
    );
    // The logo lives in one place (AGENCY_LOGO_SQL): an old agency_logos row would come back on removal.
    if (before.profile_photo !== logo)
      await ctx.db.query(`delete from agency_logos where merchant_id = $1 and logo_type = 'agency_logo'`, [m]);
    // This process reads the new zone at once; the others within the minute they keep it (agencyZone).
    if (before.time_zone !== zone) forgetAgencyZone(m);
  },
};
