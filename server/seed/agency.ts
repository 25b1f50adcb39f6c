// The demo agency's own settings (issue 35): its names, registered address, registrations, logo and favicon, and two
// business units, written through the engine by its admin as the agency would at the start of its story.
import type { Queryable } from '../db/index.js';
import type { SeedContext } from './context.js';
import type { EnginePrincipal } from '../engine/context.js';
import { systemPrincipal, withEngine } from '../engine/handle.js';
import { agencyToday } from '../../core/domain/time/agencyTime.js';

export async function seedAgencySettings(db: Queryable, ctx: SeedContext) {
  const admin: EnginePrincipal = { ...systemPrincipal(ctx.merchantId), userId: ctx.adminId, name: ctx.adminName };
  const when = new Date(Date.now() - 90 * 86_400_000);
  const c = withEngine(
    { db, principal: admin, now: when, timeZone: ctx.timeZone, today: agencyToday(ctx.timeZone, when) },
    ctx.engine,
  );
  await c.engine.update('agency_settings', ctx.merchantId, {
    legal_name: 'Brightway Staffing Ltd',
    // What reg 14 has every invoice print of the supplier (a made-up company in a real street).
    address: { line1: '12 Harbour Street', city: 'Bristol', postcode: 'BS1 4QA', country: 'United Kingdom' },
    company_number: '09876543',
    vat_number: 'GB 123 4567 89',
    default_region: 'england_wales',
    profile_photo: '/demo/agency-logo.svg',
    favicon: '/demo/agency-favicon.svg',
  });
  for (const name of ['Care homes', 'Hospitals']) await c.engine.create('business_units', { name });
}
