import { Suspense, useLayoutEffect, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { useLocation } from 'react-router';
import { getLoginType } from '../providers/session';
import { AdminLayout } from './AdminLayout';
import { ClientLayout } from './ClientLayout';

/** Said in the content area while a screen's code is fetched (screens load lazily, see App.tsx). */
function ContentLoading() {
  const translate = useTranslate();
  return (
    <div role="status" style={{ padding: 16 }}>
      {translate('app.loading')}
    </div>
  );
}

/**
 * The address of the screen on the page, once React has put it there (`data-rendered-path` on the document): a move
 * within the app renders in a transition, the previous screen staying up meanwhile, and the browser tests' sweeps
 * must judge the new screen, not the one before (tests/e2e/engineHelpers.ts navigateInApp).
 */
function RenderedPath() {
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    document.documentElement.dataset.renderedPath = pathname;
    // A screen outside the shell (a sign-in, a signing link) has no mark.
    return () => {
      delete document.documentElement.dataset.renderedPath;
    };
  }, [pathname]);
  return null;
}

/**
 * react-admin's layout: the agency panel's shell, or the client panel's for client users. The menu and app bar
 * stay on screen while a lazily loaded screen arrives; only the content area says it is loading.
 */
export function ShellLayout({ children }: { children: ReactNode }) {
  const content = (
    <Suspense fallback={<ContentLoading />}>
      {children}
      <RenderedPath />
    </Suspense>
  );
  return getLoginType() === 'client' ? <ClientLayout>{content}</ClientLayout> : <AdminLayout>{content}</AdminLayout>;
}
