import { HttpError } from '../http.js';
import type { ResourceBehaviour } from '../engine/context.js';
import { fileNameSql } from '../files/store.js';

/**
 * Hiring an applicant (issue 35): the applicant becomes a pending staff member with the application's name and
 * contact details, made through the engine (validated, versioned and audited as any new staff member), and the
 * application keeps who they became. Once only: the lifecycle makes hired final, the declaration's guard refuses an
 * application that already has its staff member, and a staff member already holding the e-mail is refused in words
 * rather than as the staff list's own duplicate.
 */
export const jobApplicationsBehaviour: ResourceBehaviour = {
  computed: { cv_name: () => fileNameSql('job_applications', 'cv') },
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
      return { candidate_id: staff.id };
    },
  },
};
