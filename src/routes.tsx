/**
 * Every route of the application shell, as data: the admin and client screens this shell owns, which panel
 * each needs, and the "coming soon" screens. Routes owned by the resource engine (client list, sites, staff
 * list and profiles, the engine's settings screens) are not here: they come from src/resources (adminResources
 * and adminRoutes) and are classified as admin routes by the guard.
 */
import type { ReactElement } from 'react';
import { matchPath } from 'react-router';
import type { PanelLoginType } from './providers/session';

export type Panel = PanelLoginType | 'any';

export interface ComingSoonRoute {
  path: string;
  /** app.screens.<screen> */
  screen: string;
  /** Shown inside the settings layout. */
  settings?: boolean;
}

export interface RedirectRoute {
  path: string;
  to: string;
}

/** Admin screens not released yet: each shows its name and says so. */
export const adminComingSoon: ComingSoonRoute[] = [];

export const adminRedirects: RedirectRoute[] = [
  { path: '/shifts', to: '/shift-list' },
  { path: '/client', to: '/client/client-list' },
  { path: '/staff', to: '/staff/staff-list' },
  { path: '/timesheet', to: '/timesheet/weekly' },
  { path: '/invoice', to: '/invoice/client-invoice' },
  { path: '/invoice/Generate-invoice', to: '/invoice/Generate-invoice/Weekly' },
  { path: '/appsetting/ClientSettings', to: '/appsetting/ClientSettings/basicClientSettings' },
  // The spec's parents of lists and tabs that live one level down.
  { path: '/site', to: '/site/siteLists' },
  { path: '/appsetting/notificationsetting/email', to: '/appsetting/notificationsetting' },
];

/** Admin screens this shell implements itself. */
export const adminShellPaths = [
  '/home',
  '/admin/:id',
  '/report',
  '/report/ClientReport',
  '/report/StaffReport',
  '/report/BusinessUnitReport',
  '/report/InvoiceReport',
];

export const clientComingSoon: ComingSoonRoute[] = [];

export const clientRedirects: RedirectRoute[] = [{ path: '/client/shift', to: '/client/shift/open-shift' }];

export const clientShellPaths = ['/client/clientDashboard', '/client/clientDashboard/:id', '/client/account'];

/** Signed in to either panel. react-admin's own error routes belong here too. */
export const anyPanelPaths = ['/LoginType', '/authentication-error', '/access-denied'];

const clientPatterns = [
  ...clientShellPaths,
  ...clientComingSoon.map((r) => r.path),
  ...clientRedirects.map((r) => r.path),
];
const ownAdminPatterns = [
  ...adminShellPaths,
  ...adminComingSoon.map((r) => r.path),
  ...adminRedirects.map((r) => r.path),
];

/** The path patterns of route elements (nested <Route>s join their parents' paths). */
export function routePatterns(elements: ReactElement[]): string[] {
  const out: string[] = [];
  const visit = (el: unknown, base: string) => {
    if (!el || typeof el !== 'object' || !('props' in el)) return;
    const props = (el as ReactElement<{ path?: string; index?: boolean; children?: unknown }>).props;
    const path = props.path === undefined ? base : joinPath(base, props.path);
    if (props.path !== undefined || props.index) out.push(path || '/');
    const children = props.children;
    if (Array.isArray(children)) children.forEach((c) => visit(c, path));
    else if (children && typeof children === 'object') visit(children, path);
  };
  elements.forEach((el) => visit(el, ''));
  return out;
}

const joinPath = (base: string, path: string) => (path.startsWith('/') ? path : `${base.replace(/\/$/, '')}/${path}`);

const matches = (patterns: string[], pathname: string) =>
  patterns.some((p) => matchPath({ path: p, end: true }, pathname));

/**
 * Which panel a path needs: client screens need a client user, react-admin resources, the engine's routes and
 * the shell's admin screens need an admin, /LoginType either; null for a path no screen answers (not found).
 */
export function panelOf(pathname: string, engine: EngineRoutes): Panel | null {
  if (matches(clientPatterns, pathname) || matches(engine.clientRoutes, pathname)) return 'client';
  if (matches(anyPanelPaths, pathname)) return 'any';
  if (matches(ownAdminPatterns, pathname)) return 'agency';
  if (engineOwns(pathname, engine)) return 'agency';
  return null;
}

export interface EngineRoutes {
  /** Path patterns of the engine's custom routes. */
  routes: string[];
  /** Path patterns of the client-panel screens the areas build. */
  clientRoutes: string[];
  /** Names of the engine's react-admin resources (each answers /{name}/*). */
  resources: string[];
}

export const engineOwns = (pathname: string, engine: EngineRoutes) =>
  matches(engine.routes, pathname) ||
  engine.resources.some((name) => matchPath({ path: `/${name}/*`, end: true }, pathname));
