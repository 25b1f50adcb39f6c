import { jobApplicationsBehaviour } from '../behaviours/jobApplications.js';
import { recruitmentSettingsBehaviour } from '../behaviours/recruitmentSettings.js';
import { seedRecruitment } from '../seed/recruitment.js';
import { careerRoutes } from '../careers/routes.js';
import type { ServerArea } from './area.js';
import { recruitmentResources } from '../../core/resources/recruitment/resource.js';
import { recruitmentSettingsRoutes } from '../routes/recruitmentSettings.js';
import { eraseExpiredApplications, RETENTION_EVERY_MS } from '../services/recruitmentRetention.js';

/**
 * Recruitment (issue 35): the agency's vacancies and the applicants' pipeline, hiring into the staff list, and the
 * public job board where applicants apply, the agency's recruitment settings, and the retention job.
 */
export const recruitmentArea: ServerArea = {
  name: 'recruitment',
  declarations: recruitmentResources,
  behaviours: { job_applications: jobApplicationsBehaviour, recruitment_settings: recruitmentSettingsBehaviour },
  // The public job board at /careers/{agency-slug} (pages, no sign-in).
  routes: [careerRoutes, recruitmentSettingsRoutes],
  // Applications not hired are erased once the agency's retention has passed (a daily job).
  jobs: [
    {
      name: 'recruitment-retention',
      everyMs: RETENTION_EVERY_MS,
      run: (db, engine) => eraseExpiredApplications(db, engine),
    },
  ],
  seed: seedRecruitment,
};
