import AccountTreeIcon from '@mui/icons-material/AccountTree';
import AlternateEmailIcon from '@mui/icons-material/AlternateEmail';
import BadgeIcon from '@mui/icons-material/Badge';
import BusinessIcon from '@mui/icons-material/Business';
import DescriptionIcon from '@mui/icons-material/Description';
import PaymentsIcon from '@mui/icons-material/Payments';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import PriceChangeIcon from '@mui/icons-material/PriceChange';
import { Box, Card, CardActionArea, CardContent, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useCanAccess, useTranslate } from 'react-admin';
import { Link } from 'react-router';
import { PageHeader } from './PageHeader';

/** The reports that exist, each with the resource whose list it is (a role that cannot list it does not see it). */
export const REPORTS: { to: string; resource: string; key: string; icon: ReactNode }[] = [
  { to: '/report/ClientReport', resource: 'shifts', key: 'clients', icon: <BusinessIcon /> },
  { to: '/report/StaffReport', resource: 'shifts', key: 'staff', icon: <BadgeIcon /> },
  // The agency's own organisation: for those who may list its business units (admins and consultants).
  { to: '/report/BusinessUnitReport', resource: 'business_units', key: 'business_units', icon: <AccountTreeIcon /> },
  { to: '/report/InvoiceReport', resource: 'invoices', key: 'invoices', icon: <ReceiptLongIcon /> },
  { to: '/report/DocumentReport', resource: 'candidate_documents', key: 'documents', icon: <DescriptionIcon /> },
  { to: '/report/RateCards', resource: 'rate_cards', key: 'rate_cards', icon: <PriceChangeIcon /> },
  { to: '/report/EmailReport', resource: 'email_outbox', key: 'email', icon: <AlternateEmailIcon /> },
  { to: '/report/PayrollReport', resource: 'payslips', key: 'payroll', icon: <PaymentsIcon /> },
];

function ReportCard({ report }: { report: (typeof REPORTS)[number] }) {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: report.resource, action: 'list' });
  if (!canAccess) return null;
  return (
    <Box component="li" sx={{ display: 'flex' }}>
      <Card variant="outlined" sx={{ flex: 1 }}>
        <CardActionArea component={Link} to={report.to} sx={{ height: '100%' }}>
          <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
            <Box aria-hidden="true" sx={{ color: 'primary.main', mt: 0.25 }}>
              {report.icon}
            </Box>
            <Box>
              <Typography variant="h6" component="h2">
                {translate(`app.reports_page.${report.key}.title`)}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {translate(`app.reports_page.${report.key}.text`)}
              </Typography>
            </Box>
          </CardContent>
        </CardActionArea>
      </Card>
    </Box>
  );
}

/** /report: every report there is, one card each, opening the report. */
export function Reports() {
  const translate = useTranslate();
  return (
    <Box>
      <PageHeader title={translate('app.screens.reports')} />
      <Box
        component="ul"
        aria-label={translate('app.screens.reports')}
        sx={{
          listStyle: 'none',
          p: 0,
          m: 0,
          display: 'grid',
          gap: 2,
          gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 280px), 1fr))',
        }}
      >
        {REPORTS.map((r) => (
          <ReportCard key={r.to} report={r} />
        ))}
      </Box>
    </Box>
  );
}
