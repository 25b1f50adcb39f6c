import { Route } from 'react-router';
import { buildResource } from '../../engine/react/buildResource';
import { EngineList } from '../../engine/react/list';
import { KeyFromLabelInput } from './KeyFromLabelInput';
import { SettingsLayout } from '../../layout/SettingsLayout';
import { DefaultPayInput } from '../rates/RateInputs';
import { InvoiceSettingsScreen } from './InvoiceSettings';
import { BasicClientSettingsScreen, ClientEmailSettingsScreen } from './ClientSettings';
import { AgencySettingsScreen } from './AgencySettings';
import { SubscriptionSettingsScreen } from './SubscriptionSettings';
import { businessUnits } from '../../../core/resources/settings/agency';
import {
  documentCategories,
  employmentTypes,
  jobRoles,
  staffDetailFields,
  staffProfiles,
  staffStatuses,
} from '../../../core/resources/settings/resources';

// Every staff setting sits in the /appsetting area, beside its sub-navigation.
const inSettings = { wrapper: SettingsLayout };

export default [
  buildResource(jobRoles, {
    ...inSettings,
    // Its default pay rate warns below the minimum wage as it is typed (issue 30.6).
    fields: { default_pay_rate: { input: <DefaultPayInput decl={jobRoles} /> } },
    // /appsetting opens on job detail.
    extraRoutes: (options) => [<Route key="index" path="/appsetting" element={<EngineList {...options} />} />],
  }),
  buildResource(staffStatuses, inSettings),
  buildResource(employmentTypes, inSettings),
  buildResource(staffProfiles, inSettings),
  buildResource(documentCategories, inSettings),
  buildResource(staffDetailFields, { ...inSettings, fields: { key: { input: <KeyFromLabelInput /> } } }),
  // The agency's business units, reached from its agency settings (issue 35).
  buildResource(businessUnits, inSettings),
];

/** Settings screens of their own, not one resource's list (the agency's one row of invoice or client settings). */
export const settingsAdminRoutes = [
  <Route
    key="agencysetting"
    path="/appsetting/agencysetting"
    element={
      <SettingsLayout>
        <AgencySettingsScreen />
      </SettingsLayout>
    }
  />,
  <Route
    key="subscription"
    path="/appsetting/SubscriptionSetting"
    element={
      <SettingsLayout>
        <SubscriptionSettingsScreen />
      </SettingsLayout>
    }
  />,
  <Route
    key="invoicesetting"
    path="/appsetting/invoicesetting"
    element={
      <SettingsLayout>
        <InvoiceSettingsScreen />
      </SettingsLayout>
    }
  />,
  <Route
    key="basicClientSettings"
    path="/appsetting/ClientSettings/basicClientSettings"
    element={
      <SettingsLayout>
        <BasicClientSettingsScreen />
      </SettingsLayout>
    }
  />,
  <Route
    key="emailNotification"
    path="/appsetting/ClientSettings/emailNotification"
    element={
      <SettingsLayout>
        <ClientEmailSettingsScreen />
      </SettingsLayout>
    }
  />,
];
