// /appsetting/agencysetting (issue 35): the agency's settings, one row per agency (migration 122) written by the engine
// (core/resources/settings/agency.ts): validated, versioned and audited there, its trading name, time zone and logo
// copied to merchants by its behaviour. The routes name no agency: each caller reads and changes their own, so another
// agency's settings cannot even be asked for.
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/index.js';
import { route } from './route.js';
import { stale } from '../engine/write.js';
import { saveAgencyRow } from '../engine/agencyRows.js';
import { writeAudit } from '../engine/audit.js';
import type { EnginePrincipal } from '../engine/context.js';
import { AnyBody } from '../../core/contracts/notifications.js';
import { AgencySettingsAnswer, type AgencySettings } from '../../core/contracts/agencySettings.js';
import { AGENCY_LOGO_SQL } from '../documents/letterhead.js';

/**
 * The row as an agency made before it would have it: its name, zone, logo and job board address as merchants has
 * them, the rest empty.
 * Written once: when the agency is made, or the first time an agency older than migration 122's row saves its
 * settings. Its creation is an entry of the trail, by `who`, as every record's is.
 */
export async function ensureAgencySettings(db: Queryable, merchantId: number, who: EnginePrincipal): Promise<boolean> {
  const [made] = await db.query<{
    company_name: string;
    time_zone: string;
    profile_photo: string | null;
    slug: string | null;
  }>(
    `insert into agency_settings (merchant_id, company_name, time_zone, profile_photo, slug)
     select m.id, m.company_name, m.time_zone, ${AGENCY_LOGO_SQL}, m.slug from merchants m where m.id = $1
     on conflict (merchant_id) do nothing returning company_name, time_zone, profile_photo, slug`,
    [merchantId],
  );
  if (!made) return false;
  const changes = Object.fromEntries(
    Object.entries(made)
      .filter(([, to]) => to !== null)
      .map(([field, to]) => [field, { from: null, to }]),
  );
  await writeAudit(db, who, { resource: 'agency_settings', recordId: merchantId, event: 'create', changes });
  return true;
}

/** The agency's settings; the defaults (version 0) where it never saved any. */
export async function agencySettingsOf(db: Queryable, merchantId: number): Promise<AgencySettings> {
  const [row] = await db.query<AgencySettings>(
    `select m.id, coalesce(s.company_name, m.company_name) as company_name, s.legal_name, s.address, s.company_number,
            s.vat_number, coalesce(s.time_zone, m.time_zone) as time_zone,
            coalesce(s.default_region, 'england_wales') as default_region,
            case when s.merchant_id is null then ${AGENCY_LOGO_SQL} else s.profile_photo end as profile_photo,
            s.favicon, coalesce(s.slug, m.slug) as slug, coalesce(s.version, 0) as version
       from merchants m left join agency_settings s on s.merchant_id = m.id where m.id = $1`,
    [merchantId],
  );
  return row;
}

export async function agencySettingsRoutes(app: FastifyInstance) {
  route(app, {
    method: 'GET',
    url: '/api/agency_settings',
    may: { agency_settings: 'show' },
    schema: {
      tags: ['agency'],
      summary:
        "The agency's settings: names, address, registrations, time zone, default region, job board address, logo and favicon",
      response: { 200: AgencySettingsAnswer },
    },
    handler: async ({ ctx }) => ({ data: await agencySettingsOf(ctx.db, ctx.principal.merchantId) }),
  });

  route(app, {
    method: 'PUT',
    url: '/api/agency_settings',
    may: { agency_settings: ['edit'] },
    schema: {
      tags: ['agency'],
      summary: "Save the agency's settings (its admins); fields left out stay as they are",
      description:
        "profile_photo and favicon: the id of an image uploaded with POST /api/files?kind=image (PNG, JPEG or WebP up to 1 MB), or null to remove it. slug: the public job board's address, /careers/{slug}: 3 to 60 lower-case letters, digits and single hyphens, not a reserved word nor another agency's; the old address stops answering.",
      body: AnyBody,
      response: { 200: AgencySettingsAnswer },
    },
    handler: async ({ req, transaction }) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const c = app.engine.get('agency_settings')!;
      const data = await transaction(async (ctx) => {
        const m = ctx.principal.merchantId;
        const made = await ensureAgencySettings(ctx.db, m, ctx.principal);
        const version = body.version;
        // Read as version 0 (nothing saved yet): someone else's first save since then makes it stale.
        if (!made && version !== undefined && version !== null && Number(version) === 0) throw stale(c);
        await saveAgencyRow(ctx, c, { ...body, version: made ? undefined : version });
        return agencySettingsOf(ctx.db, m);
      });
      return { data, message: 'Agency settings saved' };
    },
  });
}
