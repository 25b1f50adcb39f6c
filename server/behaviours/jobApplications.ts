import { HttpError } from '../http.js';
import type { EngineContext, ResourceBehaviour } from '../engine/context.js';
import { copyFile, deleteFilesOf, fileNameSql } from '../files/store.js';

/** The document category a hired applicant's CV is filed under: the agency's own of this name, made when missing. */
export const CV_CATEGORY = {
  name: 'CV',
  description: 'The CV a staff member sent when they applied (added when they were hired).',
  mandatory: false,
  validity_months: null,
};

/**
 * The agency's CV document category (its name, in any case), made through the engine the first time a hire needs it:
 * not required of anyone and never expiring, so it changes no staff member's compliance.
 */
async function cvCategoryId(ctx: EngineContext): Promise<number> {
  const [found] = await ctx.db.query<{ id: number }>(
    'select id from document_categories where merchant_id = $1 and lower(name) = lower($2) order by id limit 1',
    [ctx.principal.merchantId, CV_CATEGORY.name],
  );
  if (found) return found.id;
  return (await ctx.engine.create('document_categories', CV_CATEGORY, { reason: 'For hired applicants’ CVs' })).id;
}

/**
 * Hiring an applicant (issue 35): the applicant becomes a pending staff member with the application's name and
 * contact details, made through the engine (validated, versioned and audited as any new staff member), and the
 * application keeps who they became. Once only: the lifecycle makes hired final, the declaration's guard refuses an
 * application that already has its staff member, and a staff member already holding the e-mail is refused in words
 * rather than as the staff list's own duplicate. The application's CV, when it has one, becomes the staff member's
 * document (category CV, awaiting the agency's check): a copy of the file, as a file belongs to one record and the
 * application may later be erased.
 */
export const jobApplicationsBehaviour: ResourceBehaviour = {
  computed: { cv_name: () => fileNameSql('job_applications', 'cv') },
  // An application is erased, not hidden (an agency user's delete, or the retention job): its CV goes with it. A hired
  // applicant's staff document is a copy of its own and stays.
  async afterDelete(ctx, row) {
    await deleteFilesOf(ctx.db, ctx.principal.merchantId, 'job_applications', Number(row.id));
  },
  actions: {
    async hire(ctx, record) {
      const email = String(record.email);
      const [existing] = await ctx.db.query<{ name: string }>(
        `select first_name || ' ' || last_name as name from candidates
          where merchant_id = $1 and lower(email) = lower($2) and deleted_at is null limit 1`,
        [ctx.principal.merchantId, email],
      );
      if (existing) throw new HttpError(409, `${existing.name} is already a staff member with the e-mail ${email}.`);
      const staff = await ctx.engine.create('candidates', {
        first_name: record.first_name,
        last_name: record.last_name,
        email,
        phone: record.phone ?? null,
      });
      if (record.cv) {
        const file = await copyFile(ctx.db, ctx.principal.merchantId, String(record.cv), ctx.principal.userId);
        if (file)
          await ctx.engine.create(
            'candidate_documents',
            { candidate_id: staff.id, document_category_id: await cvCategoryId(ctx), file },
            { reason: `The CV of application ${record.id}` },
          );
      }
      return { candidate_id: staff.id };
    },
  },
};
