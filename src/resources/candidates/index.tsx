import { Route } from 'react-router';
import PeopleIcon from '@mui/icons-material/People';
import { buildResource } from '../../engine/react/buildResource';
import { candidates } from './resource';
import { CandidateProfileRoute } from './CandidateProfile';

export default buildResource(candidates, {
  icon: PeopleIcon,
  // The full profile: /staffs/{id} opens its overview tab; each tab has its own route.
  extraRoutes: (options) => [
    <Route key="profile" path="/staffs/:id" element={<CandidateProfileRoute {...options} />} />,
    <Route key="profile-tab" path="/staffs/:id/:tab" element={<CandidateProfileRoute {...options} />} />,
  ],
});
