import { jobApplicationsBehaviour } from '../behaviours/jobApplications.js';
import { seedRecruitment } from '../seed/recruitment.js';
import { careerRoutes } from '../careers/routes.js';
import type { ServerArea } from './area.js';
import { recruitmentResources } from '../../core/resources/recruitment/resource.js';

/**
 * Recruitment (issue 35): the agency's vacancies and the applicants' pipeline, hiring into the staff list, and the
 * public job board where applicants apply.
 */
export const recruitmentArea: ServerArea = {
  name: 'recruitment',
  declarations: recruitmentResources,
  behaviours: { job_applications: jobApplicationsBehaviour },
  // The public job board at /careers/{agency-slug} (pages, no sign-in).
  routes: [careerRoutes],
  seed: seedRecruitment,
};
