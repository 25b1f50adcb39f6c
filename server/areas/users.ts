import { usersBehaviour } from '../behaviours/users.js';
import { staffLoginsBehaviour } from '../behaviours/staffLogins.js';
import { auditEntriesBehaviour } from '../behaviours/auditEntries.js';
import { userRoutes } from '../routes/users.js';
import { USER_INVITE_LINK, userInviteLink } from '../auth/userInvites.js';
import type { ServerArea } from './area.js';
import { staffLogins, users } from '../../core/resources/users/resource.js';
import { auditEntries } from '../../core/resources/audit/resource.js';
import { agencyRoles } from '../../core/resources/declarations.js';
import { agencyRolesBehaviour } from '../behaviours/agencyRoles.js';

export const usersArea: ServerArea = {
  name: 'users',
  // Who may sign in, the agency's own roles they may hold (issue 35), and the trail of what each did.
  declarations: [users, staffLogins, auditEntries, agencyRoles],
  behaviours: {
    users: usersBehaviour,
    staff_logins: staffLoginsBehaviour,
    audit_entries: auditEntriesBehaviour,
    agency_roles: agencyRolesBehaviour,
  },
  routes: [userRoutes],
  links: { [USER_INVITE_LINK]: userInviteLink },
};
