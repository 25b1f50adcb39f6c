// /recruitment/settings (issue 35): the agency's recruitment settings, one row per agency written by the engine
// (core/resources/recruitment/settings.ts): the pipeline's stages in the agency's order and names, and how long
// applications that did not end in a hire are kept before the daily retention job erases them
// (server/services/recruitmentRetention.ts). Admins change; consultants read.
import type { FastifyInstance } from 'fastify';
import { route } from './route.js';
import type { Queryable } from '../db/index.js';
import { saveAgencyRow } from '../engine/agencyRows.js';
import { AnyBody } from '../../core/contracts/notifications.js';
import { RecruitmentSettingsAnswer, type RecruitmentSettings } from '../../core/contracts/recruitmentSettings.js';
import { DEFAULT_RETENTION_MONTHS } from '../../core/resources/recruitment/settings.js';
import { stagesOf } from '../../core/domain/recruitment/stages.js';

/** The agency's recruitment settings, the declared defaults where nothing is saved (version 0). */
export async function recruitmentSettingsOf(db: Queryable, merchantId: number): Promise<RecruitmentSettings> {
  const [row] = await db.query<RecruitmentSettings>(
    'select retention_months, stages, version from recruitment_settings where merchant_id = $1',
    [merchantId],
  );
  // The pipeline's stages as the agency saved them, or the product's.
  return row
    ? { ...row, stages: stagesOf(row.stages) }
    : { retention_months: DEFAULT_RETENTION_MONTHS, stages: stagesOf(null), version: 0 };
}

export async function recruitmentSettingsRoutes(app: FastifyInstance) {
  route(app, {
    method: 'GET',
    url: '/api/recruitment_settings',
    may: { recruitment_settings: 'show' },
    schema: {
      tags: ['recruitment'],
      summary: "The agency's recruitment settings: its pipeline's stages, how long applications not hired are kept",
      response: { 200: RecruitmentSettingsAnswer },
    },
    handler: async ({ ctx }) => ({ data: await recruitmentSettingsOf(ctx.db, ctx.principal.merchantId) }),
  });

  route(app, {
    method: 'PUT',
    url: '/api/recruitment_settings',
    may: { recruitment_settings: ['create', 'edit'] },
    schema: {
      tags: ['recruitment'],
      summary: "Save the agency's recruitment settings (admins)",
      body: AnyBody,
      response: { 200: RecruitmentSettingsAnswer },
    },
    handler: async ({ req, transaction }) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const c = app.engine.get('recruitment_settings')!;
      const data = await transaction(async (ctx) => {
        await saveAgencyRow(ctx, c, body);
        return recruitmentSettingsOf(ctx.db, ctx.principal.merchantId);
      });
      return { data, message: 'Recruitment settings saved' };
    },
  });
}
