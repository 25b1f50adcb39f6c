import { usersBehaviour } from '../behaviours/users.js';
import { staffLoginsBehaviour } from '../behaviours/staffLogins.js';
import { auditEntriesBehaviour } from '../behaviours/auditEntries.js';
import { userRoutes } from '../routes/users.js';
import { USER_INVITE_LINK, userInviteLink } from '../auth/userInvites.js';
import type { ServerArea } from './area.js';
import { staffLogins, users } from '../../core/resources/users/resource.js';
import { auditEntries } from '../../core/resources/audit/resource.js';

export const usersArea: ServerArea = {
  name: 'users',
  // Who may sign in, and the trail of what each did.
  declarations: [users, staffLogins, auditEntries],
  behaviours: { users: usersBehaviour, staff_logins: staffLoginsBehaviour, audit_entries: auditEntriesBehaviour },
  routes: [userRoutes],
  links: { [USER_INVITE_LINK]: userInviteLink },
};
