import type { ReactElement } from 'react';
import type { BuiltResource } from '../engine/react/buildResource';
import type { Area } from './area';
import clients from './clients';
import sites from './sites';
import candidates from './candidates';
import settings, { settingsAdminRoutes } from './settings';
import compliance from './compliance';
import rates from './rates';
import shifts from './shifts';
import communication from './communication';
import notes from './notes';
import users from './users';
import roles from './roles';
import timesheets from './timesheets';
import invoices from './invoices';
import payroll from './payroll';
import recruitment from './recruitment';

/** Every area of the app, listed once: their <Resource>s, then their own screens, in this order. */
// The areas with no screens beyond their resources' are given here as their resources.
const areas: Area[] = [
  { resources: [clients] },
  { resources: [sites] },
  { resources: [candidates] },
  { resources: settings, adminRoutes: settingsAdminRoutes },
  { resources: [users, roles] },
  { resources: compliance },
  rates,
  shifts,
  communication,
  notes,
  timesheets,
  invoices,
  payroll,
  recruitment,
];
const built: BuiltResource[] = areas.flatMap((a) => a.resources);

/** The react-admin <Resource> elements of the agency panel, built from the resource declarations. */
export const adminResources: ReactElement[] = built.map((b) => b.resource);

/** The screens at the spec's routes, for the agency panel's <CustomRoutes>. */
export const adminRoutes: ReactElement[] = [
  ...built.flatMap((b) => b.routes),
  ...areas.flatMap((a) => a.adminRoutes ?? []),
];

/** The client panel's screens that the areas build (their shifts, schedule and notifications). */
export const clientRoutes: ReactElement[] = areas.flatMap((a) => a.clientRoutes ?? []);
