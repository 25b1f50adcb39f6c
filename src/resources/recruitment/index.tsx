import WorkIcon from '@mui/icons-material/Work';
import PersonSearchIcon from '@mui/icons-material/PersonSearch';
import { Route } from 'react-router';
import type { Area } from '../area';
import { buildResource } from '../../engine/react/buildResource';
import { jobApplications, vacancies } from '../../../core/resources/recruitment/resource';
import { RecruitmentOverview } from './RecruitmentOverview';
import { RecruitmentSettingsScreen } from './RecruitmentSettings';

/**
 * Recruitment (issue 35): the overview at /recruitment, the vacancies at /recruitment/jobs, the applicants' pipeline at
 * /recruitment/staffs and the agency's recruitment settings at /recruitment/settings.
 */
const recruitment: Area = {
  resources: [buildResource(vacancies, { icon: WorkIcon }), buildResource(jobApplications, { icon: PersonSearchIcon })],
  adminRoutes: [
    <Route key="recruitment" path="/recruitment" element={<RecruitmentOverview />} />,
    <Route key="recruitment-settings" path="/recruitment/settings" element={<RecruitmentSettingsScreen />} />,
  ],
};

export default recruitment;
