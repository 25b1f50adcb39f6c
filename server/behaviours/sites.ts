// Sites beyond their declaration (core/resources/sites/resource.ts).
import type { ResourceBehaviour } from '../engine/context.js';
import { regionOfPostcode } from '../../core/domain/sites/postcodeRegion.js';
import { textOf } from '../../core/engine/types.js';

export const sitesBehaviour: ResourceBehaviour = {
  /**
   * A new site sent without a region (an import, a call of the API) takes its postcode's, as the form does as it is
   * typed, else the agency's default region for new sites (its agency settings, issue 35), rather than the
   * declaration's England & Wales.
   */
  async beforeSave(ctx, { stored, changes, record }) {
    if (stored || 'region' in changes) return;
    const address = (record.address ?? null) as Record<string, unknown> | null;
    const fromPostcode = regionOfPostcode(textOf(address?.postcode));
    if (fromPostcode) {
      record.region = fromPostcode;
      return;
    }
    const [agency] = await ctx.db.query<{ default_region: string }>(
      'select default_region from agency_settings where merchant_id = $1',
      [ctx.principal.merchantId],
    );
    if (agency) record.region = agency.default_region;
  },
};
