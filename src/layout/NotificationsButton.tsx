import NotificationsIcon from '@mui/icons-material/Notifications';
import {
  Alert,
  Badge,
  Box,
  Button,
  Divider,
  IconButton,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Popover,
  Tooltip,
  Typography,
} from '@mui/material';
import { useId, useState, type ReactElement } from 'react';
import { useTranslate } from 'react-admin';
import { useNavigate } from 'react-router';
import { inboxOfPanel, useAgencyNotifications, useMarkAllRead } from './useShellData';

/**
 * A top-bar button's name with its badge's visible text ("Notifications, 99+ unread"), so speech users can say
 * what they see.
 */
export function nameWithUnread(translate: ReturnType<typeof useTranslate>, label: string, unread: number): string {
  if (unread <= 0) return label;
  const badge = unread > 99 ? '99+' : String(unread);
  return `${label}, ${translate('app.menu.unread', { smart_count: unread }).replace(String(unread), badge)}`;
}

/**
 * An icon with its unread count, and no badge at all when nothing is unread: MUI's hidden badge keeps its last
 * number in the page, text the control's name does not contain (WCAG 2.5.3, axe's label-content-name-mismatch).
 */
export function UnreadBadge({
  unread,
  children,
  hidden,
}: {
  unread: number;
  children: ReactElement;
  /** aria-hidden: the name says the count elsewhere. */ hidden?: boolean;
}) {
  if (unread <= 0) return children;
  return (
    <Badge badgeContent={unread} color="error" max={99} aria-hidden={hidden ? 'true' : undefined}>
      {children}
    </Badge>
  );
}

/** Notifications shown at first in the top bar (spec section 9). */
export const NOTIFICATIONS_PREVIEW = 2;

/**
 * The top bar's bell: unread count badge, and a popover with the first 2 notifications,
 * "Show all" (/notification) and "Mark all as read" (PUT merchant_notification_read_all).
 */
export function NotificationsButton() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const markAllRead = useMarkAllRead();
  const { data, isError, isPending, refetch } = useAgencyNotifications();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [marking, setMarking] = useState(false);
  const titleId = useId();
  const unread = data?.unread_count ?? 0;
  const label = translate('app.topbar.notifications');
  const buttonName = nameWithUnread(translate, label, unread);

  const open = (event: React.MouseEvent<HTMLElement>) => {
    setAnchor(event.currentTarget);
    void refetch();
  };
  const close = () => setAnchor(null);

  const onMarkAll = async () => {
    setMarking(true);
    try {
      await markAllRead();
    } catch {
      // Other failures are silently ignored (spec section 8); the badge keeps its count.
    } finally {
      setMarking(false);
    }
  };

  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          aria-label={buttonName}
          aria-haspopup="dialog"
          aria-expanded={!!anchor}
          onClick={open}
        >
          <UnreadBadge unread={unread}>
            <NotificationsIcon />
          </UnreadBadge>
        </IconButton>
      </Tooltip>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: { role: 'dialog', 'aria-labelledby': titleId, sx: { width: 340, maxWidth: '90vw' } } as any,
        }}
      >
        <Box sx={{ px: 2, pt: 1.5, pb: 1, display: 'flex', alignItems: 'baseline', justifyContent: 'space-between' }}>
          <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {label}
          </Typography>
          {unread > 0 && (
            <Typography variant="caption" color="text.secondary">
              {translate('app.topbar.notifications_unread', { smart_count: unread })}
            </Typography>
          )}
        </Box>
        <Divider />
        {isError ? (
          <Alert severity="error" sx={{ m: 1.5 }}>
            {translate('app.topbar.notifications_failed')}
          </Alert>
        ) : isPending ? (
          <Typography sx={{ p: 2 }} color="text.secondary" role="status">
            {translate('app.loading')}
          </Typography>
        ) : data.notifications.length === 0 ? (
          <Typography sx={{ p: 2 }} color="text.secondary">
            {translate('app.topbar.no_notifications')}
          </Typography>
        ) : (
          <List dense disablePadding aria-label={label}>
            {data.notifications.slice(0, NOTIFICATIONS_PREVIEW).map((n) => (
              <ListItem
                key={n.id}
                divider
                disablePadding
                sx={{ alignItems: 'flex-start', bgcolor: n.read ? undefined : 'action.hover' }}
              >
                <ListItemButton
                  disabled={!n.link}
                  sx={{ '&.Mui-disabled': { opacity: 1 } }}
                  onClick={() => {
                    close();
                    if (n.link) navigate(n.link);
                  }}
                >
                  <ListItemText
                    primary={
                      <>
                        {!n.read && (
                          <Box
                            component="span"
                            sx={{
                              display: 'inline-block',
                              width: 8,
                              height: 8,
                              borderRadius: '50%',
                              bgcolor: 'error.main',
                              mr: 1,
                            }}
                            role="img"
                            aria-label={translate('app.topbar.unread_marker')}
                          />
                        )}
                        {n.title}
                      </>
                    }
                    secondary={n.body}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        )}
        <Box sx={{ display: 'flex', justifyContent: 'space-between', p: 1 }}>
          <Button
            size="small"
            onClick={() => {
              close();
              navigate(inboxOfPanel().page);
            }}
          >
            {translate('app.topbar.show_all')}
          </Button>
          <Button size="small" onClick={onMarkAll} disabled={marking || isError || unread === 0}>
            {translate('app.topbar.mark_all_read')}
          </Button>
        </Box>
      </Popover>
    </>
  );
}
