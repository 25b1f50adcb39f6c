import type { ServerArea } from './area.js';
import { agencySettingsResources } from '../../core/resources/settings/agency.js';
import { agencySettingsBehaviour } from '../behaviours/agencySettings.js';
import { agencySettingsRoutes } from '../routes/agencySettings.js';
import { subscriptionRoutes } from '../routes/subscription.js';
import { seedAgencySettings } from '../seed/agency.js';

export const agencyArea: ServerArea = {
  name: 'agency',
  // The agency's own settings and business units (issue 35).
  declarations: agencySettingsResources,
  behaviours: { agency_settings: agencySettingsBehaviour },
  routes: [agencySettingsRoutes, subscriptionRoutes],
  seed: seedAgencySettings,
};
