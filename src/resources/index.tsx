import type { ReactElement } from 'react';
import type { BuiltResource } from '../engine/react/buildResource';
import clients from './clients';
import sites from './sites';
import candidates from './candidates';
import settings from './settings';
import compliance from './compliance';

const built: BuiltResource[] = [clients, sites, candidates, ...settings, ...compliance];

/** The react-admin <Resource> elements of the agency panel, built from the resource declarations. */
export const adminResources: ReactElement[] = built.map((b) => b.resource);

/** The screens at the spec's routes, for the agency panel's <CustomRoutes>. */
export const adminRoutes: ReactElement[] = built.flatMap((b) => b.routes);
