import { Box, Card, CardActionArea, Paper, Typography } from '@mui/material';
import { useGetIdentity, useTranslate } from 'react-admin';
import { Link } from 'react-router';
import { useAgency } from '../layout/useShellData';
import { PageHeader } from '../pages/PageHeader';

const screens = [
  { to: '/client/invoice', label: 'app.client_menu.invoices' },
  { to: '/client/schedule', label: 'app.client_menu.schedule' },
  { to: '/client/signedTimesheet', label: 'app.client_menu.signed_timesheets' },
  { to: '/client/shift/open-shift', label: 'app.client_menu.shifts' },
  { to: '/client/ClientNotification', label: 'app.client_menu.notifications' },
];

/** /client/clientDashboard: the signed-in client user (GET client_login) and their client. */
export function ClientDashboard() {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  const agency = useAgency();
  const rows: [string, string | number | undefined | null][] = [
    [translate('app.personal.name'), identity?.fullName],
    [translate('app.personal.email'), identity?.email],
    [translate('app.personal.role'), identity?.role],
    [
      translate('app.client_home.client'),
      identity?.clientName ??
        (identity?.clientId ? translate('app.client_home.client_value', { id: identity.clientId }) : undefined),
    ],
    [translate('app.client_home.agency'), agency.data?.companyName],
  ];
  return (
    <Box>
      <PageHeader title={translate('app.client_home.title')} />
      <Paper
        variant="outlined"
        sx={{ p: 3, mb: 3, maxWidth: 720 }}
        component="section"
        aria-labelledby="client-account"
      >
        <Typography variant="h6" component="h2">
          {identity?.fullName
            ? translate('app.client_home.greeting', { name: identity.fullName })
            : translate('app.home.greeting_anonymous')}
        </Typography>
        <Typography id="client-account" variant="subtitle2" component="h3" color="text.secondary" sx={{ mt: 2, mb: 1 }}>
          {translate('app.client_home.account')}
        </Typography>
        <Box component="dl" sx={{ m: 0 }}>
          {rows.map(([label, value]) => (
            <Box
              key={label}
              sx={{ display: 'grid', gridTemplateColumns: '140px 1fr', py: 1, borderBottom: 1, borderColor: 'divider' }}
            >
              <Typography component="dt" color="text.secondary">
                {label}
              </Typography>
              <Typography component="dd" sx={{ m: 0 }}>
                {value ?? ''}
              </Typography>
            </Box>
          ))}
        </Box>
      </Paper>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1.5 }}>
        {translate('app.client_home.screens')}
      </Typography>
      <Box
        component="ul"
        sx={{
          listStyle: 'none',
          p: 0,
          m: 0,
          display: 'grid',
          gap: 2,
          gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))',
          maxWidth: 720,
        }}
      >
        {screens.map((s) => (
          <li key={s.to}>
            <Card variant="outlined">
              <CardActionArea component={Link} to={s.to} sx={{ p: 2 }}>
                <Typography>{translate(s.label)}</Typography>
              </CardActionArea>
            </Card>
          </li>
        ))}
      </Box>
    </Box>
  );
}
