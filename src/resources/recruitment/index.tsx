import WorkIcon from '@mui/icons-material/Work';
import PersonSearchIcon from '@mui/icons-material/PersonSearch';
import type { Area } from '../area';
import { buildResource } from '../../engine/react/buildResource';
import { jobApplications, vacancies } from '../../../core/resources/recruitment/resource';

/** Recruitment (issue 35): the vacancies at /recruitment/jobs and the applicants' pipeline at /recruitment/staffs. */
const recruitment: Area = {
  resources: [buildResource(vacancies, { icon: WorkIcon }), buildResource(jobApplications, { icon: PersonSearchIcon })],
};

export default recruitment;
