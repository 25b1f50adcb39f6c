import { lazy, StrictMode, Suspense, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { loadApp, loadedApp } from './appLoader';
import { t } from './i18n/light';
import Login from './pages/Login';
import './index.css';

/**
 * Two bundles: the Login page at "/" is eager and free of react-admin and MUI; every other path loads the
 * react-admin application (App), which finds this router and renders its routes inside it. The Login page
 * fetches App while idle, so after sign-in it is usually here already.
 * A data router (not <BrowserRouter>) so that react-admin's unsaved-changes warning (useBlocker) works.
 */
const LazyApp = lazy(loadApp);
/** The staff member's own phone-sized page, with its own sign-in and guard (src/staff). */
const StaffApp = lazy(() => import('./staff/StaffApp'));
/** Where an invited agency or client user chooses their password. */
const AcceptInvite = lazy(() => import('./pages/AcceptInvite'));
/** Where a client's approver signs a timesheet from the e-mailed link, without an account (SIGNING_PAGE). */
const SignTimesheet = lazy(() => import('./pages/SignTimesheet'));

const Loading = () => (
  <div className="app-loading" role="status">
    {t('app.loading')}
  </div>
);

/**
 * The signed-in application: rendered at once when its code has arrived (after the Login page's warm-up),
 * otherwise loaded behind the loading message. Decided once per mount, so the tree never switches between the
 * two (which would mount react-admin a second time).
 */
function SignedInApp() {
  const [App] = useState(loadedApp);
  if (App) return <App />;
  return (
    <Suspense fallback={<Loading />}>
      <LazyApp />
    </Suspense>
  );
}

const router = createBrowserRouter([
  { path: '/', element: <Login /> },
  // The address people type or bookmark to sign in (issue 30.19): the sign-in page is '/' (spec), so it leads there.
  { path: '/login', element: <Navigate to="/" replace /> },
  {
    path: '/staff-app/*',
    element: (
      <Suspense fallback={<Loading />}>
        <StaffApp />
      </Suspense>
    ),
  },
  {
    path: '/invite/:token',
    element: (
      <Suspense fallback={<Loading />}>
        <AcceptInvite />
      </Suspense>
    ),
  },
  {
    path: '/sign-timesheet/:token',
    element: (
      <Suspense fallback={<Loading />}>
        <SignTimesheet />
      </Suspense>
    ),
  },
  {
    path: '*',
    element: <SignedInApp />,
  },
]);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
