import { Suspense, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
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
 * react-admin's layout: the agency panel's shell, or the client panel's for client users. The menu and app bar
 * stay on screen while a lazily loaded screen arrives; only the content area says it is loading.
 */
export function ShellLayout({ children }: { children: ReactNode }) {
  const content = <Suspense fallback={<ContentLoading />}>{children}</Suspense>;
  return getLoginType() === 'client' ? <ClientLayout>{content}</ClientLayout> : <AdminLayout>{content}</AdminLayout>;
}
