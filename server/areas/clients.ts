import { clientsBehaviour } from '../behaviours/clients.js';
import type { ServerArea } from './area.js';

export const clientsArea: ServerArea = {
  behaviours: { clients: clientsBehaviour },
};
