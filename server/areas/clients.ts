import { clientsBehaviour } from '../behaviours/clients.js';
import type { ServerArea } from './area.js';
import { clients } from '../../core/resources/clients/resource.js';
import { sites } from '../../core/resources/sites/resource.js';

export const clientsArea: ServerArea = {
  name: 'clients',
  declarations: [clients, sites],
  behaviours: { clients: clientsBehaviour },
};
