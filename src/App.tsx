import { lazy, useMemo } from 'react';
import { Admin, CustomRoutes } from 'react-admin';
import { Navigate, Route, useLocation } from 'react-router';
import { i18nProvider } from './i18n/i18nProvider';
import { SettingsLayout } from './layout/SettingsLayout';
import { ShellLayout } from './layout/ShellLayout';
import { ComingSoon } from './pages/ComingSoon';
import { Home } from './pages/Home';
import { Reports } from './pages/Reports';
import type { LoginState } from './pages/Login';
import { LoginTypePage } from './pages/LoginTypePage';
import { NotFound } from './pages/NotFound';
import { StandaloneNotFound } from './pages/StandaloneNotFound';
import { authProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import { clearExpired, getLoginType, getToken, hasValidSession } from './providers/session';
import { adminResources, adminRoutes, clientRoutes } from './resources';
import {
  adminComingSoon,
  adminRedirects,
  clientComingSoon,
  clientRedirects,
  panelOf,
  routePatterns,
  type ComingSoonRoute,
  type EngineRoutes,
} from './routes';
import { theme } from './theme';

// Areas that are not the agency panel's first screen (the dashboard, /home) each load as a chunk of their own when
// first opened, so signing in fetches only what the dashboard shows. ShellLayout's Suspense shows "Loading…" in
// the content area meanwhile. LoginTypePage stays in App (0.7 KB gzip): as a chunk of its own it made the bundler
// move providers/session.ts out of the Login page's chunk into one more file the Login page must fetch.
const ClientDashboard = lazy(() => import('./client/ClientDashboard').then((m) => ({ default: m.ClientDashboard })));
const MyAccount = lazy(() => import('./client/MyAccount').then((m) => ({ default: m.MyAccount })));
// The declared reports' screens bring the chart library: a chunk of their own.
const ClientReportPage = lazy(() => import('./pages/ReportPages').then((m) => ({ default: m.ClientReportPage })));
const StaffReportPage = lazy(() => import('./pages/ReportPages').then((m) => ({ default: m.StaffReportPage })));
const BusinessUnitReportPage = lazy(() =>
  import('./pages/ReportPages').then((m) => ({ default: m.BusinessUnitReportPage })),
);
const InvoiceReportPage = lazy(() => import('./pages/ReportPages').then((m) => ({ default: m.InvoiceReportPage })));
const PersonalSettings = lazy(() => import('./pages/PersonalSettings').then((m) => ({ default: m.PersonalSettings })));

const engine: EngineRoutes = {
  routes: routePatterns(adminRoutes),
  clientRoutes: routePatterns(clientRoutes),
  resources: adminResources.map((r) => (r.props as { name?: string }).name).filter((n): n is string => !!n),
};

const comingSoon = (r: ComingSoonRoute) => (
  <Route
    key={r.path}
    path={r.path}
    element={
      r.settings ? (
        <SettingsLayout>
          <ComingSoon screen={r.screen} />
        </SettingsLayout>
      ) : (
        <ComingSoon screen={r.screen} />
      )
    }
  />
);

type Decision = { kind: 'render' } | { kind: 'login'; state?: LoginState } | { kind: 'not_found' };

/**
 * The route guard (spec sections 2, 4 and 6). Admin routes need a valid session with loginType admin, client
 * routes loginType client, /LoginType either. No token or an expired one: the session is cleared and the user
 * goes to Login. A panel mismatch: Login, with state {reason: 'wrong_panel', panel: the panel the page needs}
 * (Login then signs out, says why, and preselects that panel).
 */
export function decide(pathname: string): Decision {
  const panel = panelOf(pathname, engine);
  if (!hasValidSession()) {
    const hadToken = !!getToken();
    clearExpired();
    if (panel === null) return { kind: 'not_found' };
    return { kind: 'login', state: hadToken ? { reason: 'expired' } : undefined };
  }
  if (panel === null || panel === 'any') return { kind: 'render' };
  if (panel !== getLoginType()) return { kind: 'login', state: { reason: 'wrong_panel', panel } };
  return { kind: 'render' };
}

/** The signed-in application: react-admin inside the router created in main.tsx, behind the guard. */
export default function App() {
  const { pathname } = useLocation();
  const decision = decide(pathname);
  // Built once: navigation re-renders this component, never the whole <Admin> tree.
  const admin = useMemo(
    () => (
      <Admin
        dataProvider={dataProvider}
        authProvider={authProvider}
        i18nProvider={i18nProvider}
        theme={theme}
        layout={ShellLayout}
        loginPage={false}
        catchAll={NotFound}
        title="app.name"
        disableTelemetry
      >
        {adminResources}
        <CustomRoutes>
          {/* Agency panel */}
          <Route path="/home" element={<Home />} />
          <Route path="/admin/:id" element={<PersonalSettings />} />
          <Route path="/report" element={<Reports />} />
          <Route path="/report/ClientReport" element={<ClientReportPage />} />
          <Route path="/report/StaffReport" element={<StaffReportPage />} />
          <Route path="/report/BusinessUnitReport" element={<BusinessUnitReportPage />} />
          <Route path="/report/InvoiceReport" element={<InvoiceReportPage />} />
          {adminRedirects.map((r) => (
            <Route key={r.path} path={r.path} element={<Navigate to={r.to} replace />} />
          ))}
          {adminComingSoon.map(comingSoon)}
          {adminRoutes}
          {/* Client panel */}
          <Route path="/client/clientDashboard" element={<ClientDashboard />} />
          <Route path="/client/clientDashboard/:id" element={<ClientDashboard />} />
          <Route path="/client/account" element={<MyAccount />} />
          {clientRedirects.map((r) => (
            <Route key={r.path} path={r.path} element={<Navigate to={r.to} replace />} />
          ))}
          {clientComingSoon.map(comingSoon)}
          {clientRoutes}
          {/* Either panel */}
          <Route path="/LoginType" element={<LoginTypePage />} />
        </CustomRoutes>
      </Admin>
    ),
    [],
  );
  if (decision.kind === 'login') return <Navigate to="/" replace state={decision.state} />;
  if (decision.kind === 'not_found') return <StandaloneNotFound />;
  return admin;
}
