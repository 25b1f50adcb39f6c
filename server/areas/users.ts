import { usersBehaviour } from '../behaviours/users.js';
import { staffLoginsBehaviour } from '../behaviours/staffLogins.js';
import { userRoutes } from '../routes/users.js';
import type { ServerArea } from './area.js';

export const usersArea: ServerArea = {
  behaviours: { users: usersBehaviour, staff_logins: staffLoginsBehaviour },
  routes: [userRoutes],
};
