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
import { useCanAccess, usePermissions, useTranslate } from 'react-admin';
import type { Principal } from '../../core/resources/access';
import { mayRunReport } from '../../core/resources/access';
import {
  businessUnitReport,
  clientReport,
  INVOICE_REPORT_VIEWS,
  STAFF_REPORT_VIEWS,
} from '../../core/resources/reports';
import type { ReportDeclaration } from '../../core/engine/reports';
import { Link } from 'react-router';
import { PageHeader } from './PageHeader';

/**
 * The reports that exist, each with the resource whose list it is (a role that cannot list it does not see it) and,
 * for a declared report's screen, the declared reports it shows (a role that may run none of them does not see it:
 * a custom role is granted reports one by one).
 */
export const REPORTS: {
  to: string;
  resource: string;
  key: string;
  icon: ReactNode;
  declared?: readonly ReportDeclaration[];
}[] = [
  {
    to: '/report/ClientReport',
    resource: 'shifts',
    key: 'clients',
    icon: <BusinessIcon />,
    declared: [clientReport],
  },
  { to: '/report/StaffReport', resource: 'shifts', key: 'staff', icon: <BadgeIcon />, declared: STAFF_REPORT_VIEWS },
  // The agency's own organisation: for those who may list its business units (admins and consultants).
  {
    to: '/report/BusinessUnitReport',
    resource: 'business_units',
    key: 'business_units',
    icon: <AccountTreeIcon />,
    declared: [businessUnitReport],
  },
  {
    to: '/report/InvoiceReport',
    resource: 'invoices',
    key: 'invoices',
    icon: <ReceiptLongIcon />,
    declared: INVOICE_REPORT_VIEWS,
  },
  { to: '/report/DocumentReport', resource: 'candidate_documents', key: 'documents', icon: <DescriptionIcon /> },
  { to: '/report/RateCards', resource: 'rate_cards', key: 'rate_cards', icon: <PriceChangeIcon /> },
  { to: '/report/EmailReport', resource: 'email_outbox', key: 'email', icon: <AlternateEmailIcon /> },
  { to: '/report/PayrollReport', resource: 'payslips', key: 'payroll', icon: <PaymentsIcon /> },
];

function ReportCard({ report }: { report: (typeof REPORTS)[number] }) {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: report.resource, action: 'list' });
  const { permissions } = usePermissions<Principal | null>();
  const mayRun = !report.declared || (!!permissions && report.declared.some((r) => mayRunReport(permissions, r)));
  if (!canAccess || !mayRun) return null;
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
