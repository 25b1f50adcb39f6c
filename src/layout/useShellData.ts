import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../providers/http';
import { getLoginType, getMerchantId } from '../providers/session';

export interface AgencyInfo {
  companyName: string;
  profilePhoto: string | null;
  /** The logo_url of the agency_logo_list entry with logo_type 'agency_logo', if any. */
  logoUrl: string | null;
  faviconUrl: string | null;
}

/** The agency's name (GET merchants/{merchant_id}) and logo (GET agency_logo_list, logo_type agency_logo). */
export function useAgency() {
  const merchantId = getMerchantId();
  const query = useQuery({
    queryKey: ['shell', 'agency', merchantId],
    enabled: !!merchantId,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }): Promise<AgencyInfo> => {
      const [merchant, logos] = await Promise.all([
        api<{ data: { company_name?: string; profile_photo?: string | null } }>(`/merchants/${encodeURIComponent(merchantId!)}`, { signal }),
        // A missing logo list only means the placeholder is shown.
        api<{ data: { logo_type: string; logo_url: string }[] }>('/agency_logo_list', { signal }).catch(() => ({ data: [] })),
      ]);
      const logo = (type: string) => logos.data?.find((l) => l.logo_type === type)?.logo_url || null;
      return {
        companyName: merchant.data?.company_name ?? '',
        profilePhoto: merchant.data?.profile_photo ?? null,
        logoUrl: logo('agency_logo'),
        faviconUrl: logo('favicon'),
      };
    },
  });
  const favicon = query.data?.faviconUrl;
  useEffect(() => {
    if (!favicon) return;
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (link) link.href = favicon;
  }, [favicon]);
  return query;
}

export interface AgencyNotification {
  id: number;
  title: string;
  body?: string | null;
  link?: string | null;
  read: boolean;
  created_at?: string;
}

export interface NotificationsAnswer {
  notifications: AgencyNotification[];
  current_page: number;
  total_count: number;
  unread_count: number;
  message: string;
}

/** Notifications page size (spec section 9). */
export const NOTIFICATIONS_PAGE_SIZE = 10;
export const notificationsKey = ['shell', 'agency_notifications'] as const;

/** The first page of the agency's notifications, with unread_count for the badges (admin panel only). */
export function useAgencyNotifications() {
  return useQuery({
    queryKey: notificationsKey,
    enabled: getLoginType() === 'admin',
    refetchInterval: 60_000,
    retry: false,
    queryFn: ({ signal }) => api<NotificationsAnswer>(`/agency_notifications?page=1&per_page=${NOTIFICATIONS_PAGE_SIZE}`, { signal }),
  });
}

/** PUT merchant_notification_read_all, then reload the notifications. */
export function useMarkAllRead() {
  const client = useQueryClient();
  return async () => {
    await api('/merchant_notification_read_all', { method: 'PUT' });
    await client.invalidateQueries({ queryKey: notificationsKey });
  };
}
