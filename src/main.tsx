import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { t } from './i18n/light';
import Login from './pages/Login';
import './index.css';

/**
 * Two bundles: the Login page at "/" is eager and free of react-admin and MUI; every other path loads the
 * react-admin application (App), which finds this router and renders its routes inside it.
 * A data router (not <BrowserRouter>) so that react-admin's unsaved-changes warning (useBlocker) works.
 */
const App = lazy(() => import('./App'));

const Loading = () => (
  <div className="app-loading" role="status">
    {t('app.loading')}
  </div>
);

const router = createBrowserRouter([
  { path: '/', element: <Login /> },
  {
    path: '*',
    element: (
      <Suspense fallback={<Loading />}>
        <App />
      </Suspense>
    ),
  },
]);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
