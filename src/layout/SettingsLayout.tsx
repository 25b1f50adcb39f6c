import { Box, List, ListItem, ListItemButton, ListItemText, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Link, matchPath, useLocation } from 'react-router';

/** The /appsetting sections, in the order of the sub-navigation. */
export const settingsSections: { to: string; label: string; activeOn?: string[] }[] = [
  // /appsetting opens on job detail.
  { to: '/appsetting/addjobdetail', label: 'app.settings_nav.job_detail', activeOn: ['/appsetting'] },
  { to: '/appsetting/staff-status', label: 'app.settings_nav.staff_status' },
  { to: '/appsetting/employmenttypedetail', label: 'app.settings_nav.employment_type' },
  { to: '/appsetting/shift', label: 'app.settings_nav.shift' },
  { to: '/appsetting/holidaycalender', label: 'app.settings_nav.holiday_calendar' },
  { to: '/appsetting/staff-deduction', label: 'app.settings_nav.staff_deduction' },
  { to: '/appsetting/staff-profiles', label: 'app.settings_nav.staff_profiles' },
  { to: '/appsetting/staff-detail-field', label: 'app.settings_nav.staff_detail_fields' },
  { to: '/appsetting/documentcategories', label: 'app.settings_nav.document_categories' },
  { to: '/appsetting/agencysetting', label: 'app.settings_nav.agency' },
  { to: '/appsetting/invoicesetting', label: 'app.settings_nav.invoice' },
  { to: '/appsetting/SubscriptionSetting', label: 'app.settings_nav.subscription' },
  { to: '/appsetting/notificationsetting', label: 'app.settings_nav.notifications' },
  { to: '/appsetting/previlegesetting', label: 'app.settings_nav.privileges' },
  { to: '/appsetting/ClientSettings', label: 'app.settings_nav.client_settings' },
];

function isActive(pathname: string, section: (typeof settingsSections)[number]) {
  if (matchPath({ path: section.to, end: false }, pathname)) return true;
  return (section.activeOn ?? []).some((p) => matchPath({ path: p, end: true }, pathname));
}

/**
 * The /appsetting area: a left sub-navigation of the settings sections, and the open section beside it.
 * Every settings screen (the shell's and the resource engine's) renders inside it.
 */
export function SettingsLayout({ children }: { children: ReactNode }) {
  const translate = useTranslate();
  const { pathname } = useLocation();
  return (
    <Box sx={{ display: 'flex', gap: 3, alignItems: 'flex-start', flexDirection: { xs: 'column', md: 'row' } }}>
      <Paper
        component="nav"
        aria-label={translate('app.settings_nav.label')}
        variant="outlined"
        sx={{ width: { xs: '100%', md: 240 }, flexShrink: 0, py: 1 }}
      >
        <Typography variant="overline" component="h2" sx={{ px: 2, color: 'text.secondary' }}>
          {translate('app.settings_nav.title')}
        </Typography>
        <List dense disablePadding>
          {settingsSections.map((section) => {
            const active = isActive(pathname, section);
            return (
              <ListItem key={section.to} disablePadding>
                <ListItemButton
                  component={Link}
                  to={section.to}
                  selected={active}
                  aria-current={active ? 'page' : undefined}
                  sx={{ '&.Mui-selected': { borderLeft: 3, borderColor: 'primary.main', pl: 1.625 } }}
                >
                  <ListItemText primary={translate(section.label)} />
                </ListItemButton>
              </ListItem>
            );
          })}
        </List>
      </Paper>
      <Box sx={{ flex: 1, minWidth: 0, width: '100%' }}>{children}</Box>
    </Box>
  );
}
