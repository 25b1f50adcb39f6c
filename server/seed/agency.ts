// The demo agency's own settings (issue 35): its names, registered address, registrations, logo and favicon, and two
// business units with their managers, clients and consultant (issue 34), written through the engine by its admin as
// the agency would at the start of its story.
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
  // Two units, each with a manager: care homes under the consultant (who works in it), hospitals under the admin.
  const [consultant] = await db.query<{ id: number }>(
    `select id from users where merchant_id = $1 and kind = 'admin' and role = 'consultant' order by id limit 1`,
    [ctx.merchantId],
  );
  const care = await c.engine.create('business_units', { name: 'Care homes', manager_id: consultant?.id ?? null });
  const hospitals = await c.engine.create('business_units', { name: 'Hospitals', manager_id: ctx.adminId });
  if (consultant) await db.query('update users set business_unit_id = $1 where id = $2', [care.id, consultant.id]);
  // The demo's clients are its care homes then its hospitals (seedDemo): each in its unit, except the two newest care
  // homes, not placed yet, so the business unit report has its "No business unit" row.
  const clients = await db.query<{ id: number; client_type: string }>(
    'select id, client_type from clients where merchant_id = $1 and id = any($2::int[]) order by id',
    [ctx.merchantId, ctx.clientIds],
  );
  const careHomes = clients.filter((x) => x.client_type !== 'Hospital');
  const unplaced = new Set(careHomes.slice(-2).map((x) => x.id));
  for (const x of clients)
    if (!unplaced.has(x.id))
      await db.query('update clients set business_unit_id = $1 where id = $2', [
        x.client_type === 'Hospital' ? hospitals.id : care.id,
        x.id,
      ]);
}
