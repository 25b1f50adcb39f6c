import type { ReactNode } from 'react';
import { getLoginType } from '../providers/session';
import { AdminLayout } from './AdminLayout';
import { ClientLayout } from './ClientLayout';

/** react-admin's layout: the agency panel's shell, or the client panel's for client users. */
export function ShellLayout({ children }: { children: ReactNode }) {
  return getLoginType() === 'client' ? <ClientLayout>{children}</ClientLayout> : <AdminLayout>{children}</AdminLayout>;
}
