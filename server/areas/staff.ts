import { candidatesBehaviour } from '../behaviours/candidates.js';
import { STAFF_INVITE_LINK, staffInviteLink } from '../auth/staffInvites.js';
import type { ServerArea } from './area.js';
import { bankDetailsRoutes } from '../routes/bankDetails.js';
import { candidates } from '../../core/resources/candidates/resource.js';
import {
  employmentTypes,
  staffDetailFields,
  staffProfiles,
  staffStatuses,
} from '../../core/resources/settings/resources.js';

export const staffArea: ServerArea = {
  name: 'staff',
  // A staff member and the agency's settings that describe them.
  declarations: [candidates, staffStatuses, employmentTypes, staffProfiles, staffDetailFields],
  behaviours: { candidates: candidatesBehaviour },
  // A staff member's bank details in full, for admins, each view audited (issue 33).
  routes: [bankDetailsRoutes],
  links: { [STAFF_INVITE_LINK]: staffInviteLink },
};
