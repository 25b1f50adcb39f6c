import { usersBehaviour } from '../behaviours/users.js';
import { userRoutes } from '../routes/users.js';
import type { ServerArea } from './area.js';

export const usersArea: ServerArea = {
  behaviours: { users: usersBehaviour },
  routes: [userRoutes],
};
