import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../providers/http';
import { loadFile } from '../engine/react/files';
import { isFileId } from '../../core/engine/files';
import { getLoginType, getMerchantId } from '../providers/session';
import type { AgencyAnswer, AgencyLogos } from '../../core/contracts/account';
import type { UnreadCount } from '../../core/contracts/chat';
import type { Inbox, Notification } from '../../core/contracts/notifications';

export interface AgencyInfo {
  companyName: string;
  profilePhoto: string | null;
  /** The logo_url of the agency_logo_list entry with logo_type 'agency_logo', if any. */
  logoUrl: string | null;
  faviconUrl: string | null;
  /** The agency's IANA time zone (merchants.time_zone): times on screen are its wall clock. */
  timeZone: string;
  /** Sent back with a change of the profile: a stale one is refused (409). */
  version?: number;
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
        api<AgencyAnswer>(`/merchants/${encodeURIComponent(merchantId!)}`, { signal }),
        // A missing logo list only means the placeholder is shown.
        api<AgencyLogos>('/agency_logo_list', { signal }).catch((): AgencyLogos => ({ data: [] })),
      ]);
      const logo = (type: string) => logos.data?.find((l) => l.logo_type === type)?.logo_url || null;
      return {
        companyName: merchant.data?.company_name ?? '',
        profilePhoto: merchant.data?.profile_photo ?? null,
        logoUrl: logo('agency_logo'),
        faviconUrl: logo('favicon'),
        timeZone: merchant.data?.time_zone || 'Europe/London',
        version: merchant.data?.version,
      };
    },
  });
  const favicon = query.data?.faviconUrl;
  useEffect(() => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) return;
    // The product's own icon, put back when the agency has none (or removes its own).
    link.dataset.productIcon ??= link.getAttribute('href') ?? '';
    link.dataset.productType ??= link.type;
    const show = (href: string, type: string) => {
      link.type = type;
      link.href = href;
    };
    if (!favicon) return show(link.dataset.productIcon, link.dataset.productType);
    // A file of the store is read with the session's token (a plain <link> sends none): shown as a blob URL.
    const path: string = favicon;
    if (!isFileId(favicon)) return show(path, path.endsWith('.svg') ? 'image/svg+xml' : '');
    let live = true;
    loadFile(favicon).then(
      (f) => live && show(f.url, f.mime),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [favicon]);
  return query;
}

/** The API's answers (core/contracts/notifications.ts), under the names the screens use. */
export type AgencyNotification = Notification;
export type NotificationsAnswer = Inbox;

/** Notifications page size (spec section 9). */
export const NOTIFICATIONS_PAGE_SIZE = 10;
export const notificationsKey = ['shell', 'agency_notifications'] as const;

/** Each panel's inbox: its calls and its notifications screen. */
export const NOTIFICATION_INBOXES = {
  agency: { list: '/agency_notifications', readAll: '/merchant_notification_read_all', page: '/notification' },
  client: {
    list: '/client_notifications',
    readAll: '/client_notification_read_all',
    page: '/client/ClientNotification',
  },
} as const;
export const inboxOfPanel = () => NOTIFICATION_INBOXES[getLoginType() === 'client' ? 'client' : 'agency'];

/**
 * The first page of the signed-in panel's notifications (the agency's, or the client's), with unread_count for the
 * badges.
 */
export function useAgencyNotifications() {
  const panel = getLoginType();
  return useQuery({
    queryKey: [...notificationsKey, panel],
    enabled: panel === 'agency' || panel === 'client',
    refetchInterval: 60_000,
    retry: false,
    queryFn: ({ signal }) =>
      api<NotificationsAnswer>(`${inboxOfPanel().list}?page=1&per_page=${NOTIFICATIONS_PAGE_SIZE}`, { signal }),
  });
}

export const chatUnreadKey = ['shell', 'chat_unread'] as const;

/**
 * The agency's unread messages from staff (GET chats/unread_count) for the top bar's chat badge: refreshed like
 * the notification bell, and when the chat screen sees a message arrive or a conversation read.
 */
export function useChatUnread() {
  return useQuery({
    queryKey: chatUnreadKey,
    enabled: getLoginType() === 'agency',
    refetchInterval: 60_000,
    retry: false,
    queryFn: ({ signal }) => api<UnreadCount>('/chats/unread_count', { signal }).then((r) => r.count),
  });
}

/**
 * Marks the panel's inbox read (PUT merchant_notification_read_all, or the client's), then reloads the notifications.
 */
export function useMarkAllRead() {
  const client = useQueryClient();
  return async () => {
    await api(inboxOfPanel().readAll, { method: 'PUT' });
    await client.invalidateQueries({ queryKey: notificationsKey });
  };
}
