import { clientsBehaviour } from '../behaviours/clients.js';
import { sitesBehaviour } from '../behaviours/sites.js';
import type { ServerArea } from './area.js';
import { clients } from '../../core/resources/clients/resource.js';
import { sites } from '../../core/resources/sites/resource.js';
import { clientSettings } from '../../core/resources/clients/settings.js';
import { clientSettingsRoutes } from '../routes/clientSettings.js';
import { seedClientSettings } from '../seed/clientSettings.js';

export const clientsArea: ServerArea = {
  name: 'clients',
  declarations: [clients, clientSettings, sites],
  behaviours: { clients: clientsBehaviour, sites: sitesBehaviour },
  routes: [clientSettingsRoutes],
  // The demo's client settings, and a client user who chose otherwise (the e-mails screen shows both).
  seed: seedClientSettings,
};
