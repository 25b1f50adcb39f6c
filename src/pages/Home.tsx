import AssessmentIcon from '@mui/icons-material/Assessment';
import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import GroupIcon from '@mui/icons-material/Group';
import ListAltIcon from '@mui/icons-material/ListAlt';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import ScheduleIcon from '@mui/icons-material/Schedule';
import SettingsIcon from '@mui/icons-material/Settings';
import WorkHistoryIcon from '@mui/icons-material/WorkHistory';
import { Box, Card, CardActionArea, CardContent, Paper, Skeleton, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, type ReactNode } from 'react';
import { useCanAccess, useGetIdentity, usePermissions, useTranslate } from 'react-admin';
import { mayRunReport, type Principal } from '../../core/resources/access';
import { clientReport } from '../../core/resources/reports';
import { Link } from 'react-router';
import { useAgency, useAgencyNotifications } from '../layout/useShellData';
import { api } from '../providers/http';
import { PageHeader } from './PageHeader';
import { cardGrid, NeedsDoing, needsDoingQuery } from './NeedsDoing';

// The charts bring the chart library: a chunk of its own, fetched once the Needs doing figures have come.
const HowItIsGoing = lazy(() => import('./HowItIsGoing').then((m) => ({ default: m.HowItIsGoing })));

/**
 * A count from a list call's total_count; undefined (the card is left out) when the call fails or does not exist yet.
 */
function useTotal(key: string, path: string) {
  return useQuery({
    queryKey: ['home', key],
    retry: false,
    staleTime: 60_000,
    queryFn: async ({ signal }) => {
      const r = await api<{ total_count?: unknown }>(path, { signal });
      return typeof r?.total_count === 'number' ? r.total_count : null;
    },
  });
}

function Figure({
  label,
  value,
  to,
  pending,
}: {
  label: string;
  value: number | null | undefined;
  to: string;
  pending: boolean;
}) {
  if (!pending && (value === null || value === undefined)) return null;
  return (
    <Card variant="outlined" sx={{ minWidth: 180, flex: '1 1 180px' }}>
      <CardActionArea component={Link} to={to} sx={{ height: '100%' }}>
        <CardContent>
          <Typography variant="body2" color="text.secondary" component="h3">
            {label}
          </Typography>
          <Typography variant="h4" component="p" sx={{ fontWeight: 600, mt: 1 }}>
            {pending ? <Skeleton width={60} /> : value}
          </Typography>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}

const quickLinks: { to: string; label: string; icon: ReactNode }[] = [
  { to: '/client/client-list', label: 'app.menu.client_list', icon: <ListAltIcon /> },
  { to: '/staff/staff-list', label: 'app.menu.staff_list', icon: <GroupIcon /> },
  { to: '/shifts', label: 'app.menu.shifts', icon: <WorkHistoryIcon /> },
  { to: '/schedule', label: 'app.menu.schedule', icon: <CalendarMonthIcon /> },
  { to: '/timesheet/weekly', label: 'app.menu.timesheet', icon: <ScheduleIcon /> },
  { to: '/invoice/client-invoice', label: 'app.menu.client_invoice', icon: <ReceiptLongIcon /> },
  { to: '/report', label: 'app.menu.reports', icon: <AssessmentIcon /> },
  { to: '/appsetting', label: 'app.menu.settings', icon: <SettingsIcon /> },
];

/**
 * The agency dashboard at /home: greeting, agency, what needs doing (the work queue: issue 34), figures at a glance,
 * quick links.
 */
export function Home() {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  const agency = useAgency();
  const notifications = useAgencyNotifications();
  const activeStaff = useTotal(
    'active_staff',
    '/candidates?status_value=approved&activated_value=true&page=1&per_page=1',
  );
  const clients = useTotal('clients', '/clients?page=1&per_page=1');
  // The same query as the queue's (one request): the charts wait for its answer, so the figures come first.
  const queue = useQuery(needsDoingQuery);
  const { canAccess: mayListShifts } = useCanAccess({ resource: 'shifts', action: 'list' });
  // The charts are the Client Report's: a custom role is granted it on its own (issue 35).
  const { permissions } = usePermissions<Principal | null>();
  const mayChart = mayListShifts && !!permissions && mayRunReport(permissions, clientReport);

  const figures = [
    { label: 'app.home.active_staff', q: activeStaff, to: '/staffs/activeStaff' },
    { label: 'app.home.clients', q: clients, to: '/client/client-list' },
  ];
  const unread = notifications.isSuccess ? notifications.data.unread_count : undefined;
  const anyFigure =
    figures.some((f) => f.q.isPending || typeof f.q.data === 'number') ||
    notifications.isPending ||
    typeof unread === 'number';

  return (
    <Box>
      <PageHeader title={translate('app.home.title')} />
      <Paper variant="outlined" sx={{ p: 3, mb: 3 }}>
        <Typography variant="h6" component="h2">
          {identity?.fullName
            ? translate('app.home.greeting', { name: identity.fullName })
            : translate('app.home.greeting_anonymous')}
        </Typography>
        {agency.data?.companyName && (
          <Typography color="text.secondary" sx={{ mt: 0.5 }}>
            {translate('app.home.agency', { name: agency.data.companyName })}
          </Typography>
        )}
      </Paper>

      <NeedsDoing />
      {mayChart && !queue.isPending && (
        <Suspense fallback={null}>
          <HowItIsGoing />
        </Suspense>
      )}

      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1.5 }}>
        {translate('app.home.figures')}
      </Typography>
      {anyFigure ? (
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mb: 3 }} data-testid="home-figures">
          {figures.map((f) => (
            <Figure key={f.label} label={translate(f.label)} value={f.q.data} pending={f.q.isPending} to={f.to} />
          ))}
          <Figure
            label={translate('app.home.unread_notifications')}
            value={unread}
            pending={notifications.isPending}
            to="/notification"
          />
        </Box>
      ) : (
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {translate('app.home.no_figures')}
        </Typography>
      )}

      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1.5 }}>
        {translate('app.home.quick_links')}
      </Typography>
      <Box component="ul" sx={cardGrid(200)}>
        {quickLinks.map((l) => (
          <li key={l.to}>
            <Card variant="outlined">
              <CardActionArea
                component={Link}
                to={l.to}
                sx={{ p: 2, display: 'flex', justifyContent: 'flex-start', gap: 1.5 }}
              >
                <Box sx={{ color: 'primary.main', display: 'flex' }} aria-hidden="true">
                  {l.icon}
                </Box>
                <Typography>{translate(l.label)}</Typography>
              </CardActionArea>
            </Card>
          </li>
        ))}
      </Box>
    </Box>
  );
}
