import { Navigate, Route, useParams } from 'react-router';
import PeopleIcon from '@mui/icons-material/People';
import { buildResource } from '../../engine/react/buildResource';
import { candidates } from '../../../core/resources/candidates/resource';
import { CandidateProfileRoute } from './CandidateProfile';
import { BankDetailsField } from './BankDetailsField';

export default buildResource(candidates, {
  icon: PeopleIcon,
  // The full profile is the show view: /staffs/{id} opens its overview tab; each tab has its own route.
  show: CandidateProfileRoute,
  // The masked bank details with "Show in full" (admins only receive the field; each view is audited).
  fields: {
    bank_details_masked: {
      field: <BankDetailsField key="bank_details_masked" source="bank_details_masked" label="Bank details" />,
    },
  },
  extraRoutes: (options) => [
    <Route key="profile-tab" path="/staffs/:id/:tab" element={<CandidateProfileRoute {...options} />} />,
    // The old flat record page's address still works and shows the same information, in the profile.
    <Route key="profileview" path="/staffs/profileview/:id" element={<ProfileViewRedirect />} />,
  ],
});

function ProfileViewRedirect() {
  const { id } = useParams();
  return <Navigate to={`/staffs/${id}/overview`} replace />;
}
