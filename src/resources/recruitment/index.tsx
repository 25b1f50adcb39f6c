import WorkIcon from '@mui/icons-material/Work';
import PersonSearchIcon from '@mui/icons-material/PersonSearch';
import { Route } from 'react-router';
import type { Area } from '../area';
import { buildResource } from '../../engine/react/buildResource';
import { jobApplications, vacancies } from '../../../core/resources/recruitment/resource';
import { RecruitmentOverview } from './RecruitmentOverview';
import { RecruitmentSettingsScreen } from './RecruitmentSettings';
import { PipelineBoard, StagedList, StagedShow } from './stages';

/**
 * Recruitment (issue 35): the overview at /recruitment, the vacancies at /recruitment/jobs, the applicants' pipeline at
 * /recruitment/staffs (a list, and a board at /recruitment/staffs/board) and the agency's recruitment settings at
 * /recruitment/settings.
 */
const recruitment: Area = {
  resources: [
    buildResource(vacancies, { icon: WorkIcon }),
    buildResource(jobApplications, {
      icon: PersonSearchIcon,
      // The agency's stages, in its order and names (its recruitment settings), on the list, the record and the board.
      list: StagedList,
      show: StagedShow,
      extraRoutes: (options) => [
        <Route key="board" path="/recruitment/staffs/board" element={<PipelineBoard {...options} />} />,
      ],
    }),
  ],
  adminRoutes: [
    <Route key="recruitment" path="/recruitment" element={<RecruitmentOverview />} />,
    <Route key="recruitment-settings" path="/recruitment/settings" element={<RecruitmentSettingsScreen />} />,
  ],
};

export default recruitment;
