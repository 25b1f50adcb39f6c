import { Tab, Tabs } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link, useSearchParams } from 'react-router';
import { ReportView } from '../engine/react/ReportView';
import { businessUnitReport, clientReport, INVOICE_REPORT_VIEWS, staffReport } from '../../core/resources/reports';

/** /report/ClientReport: per client, site and job role (core/resources/reports.ts clientReport). */
export function ClientReportPage() {
  const translate = useTranslate();
  return <ReportView report={clientReport} title={translate('app.screens.client_report')} />;
}

/** /report/StaffReport: per staff member (core/resources/reports.ts staffReport). */
export function StaffReportPage() {
  const translate = useTranslate();
  return <ReportView report={staffReport} title={translate('app.screens.staff_report')} />;
}

/**
 * /report/BusinessUnitReport: per business unit, its clients' shifts (core/resources/reports.ts businessUnitReport);
 * the clients in no unit under "No business unit".
 */
export function BusinessUnitReportPage() {
  const translate = useTranslate();
  return <ReportView report={businessUnitReport} title={translate('app.screens.business_unit_report')} />;
}

/**
 * /report/InvoiceReport: the aged debt (as of today) and what was invoiced in a period, one declared report each
 * (core/resources/reports.ts), chosen by tabs kept in the address (`view`, the first when none). A tab starts its own
 * report afresh: the other's grouping and period mean nothing to it.
 */
export function InvoiceReportPage() {
  const translate = useTranslate();
  const [params] = useSearchParams();
  const report = INVOICE_REPORT_VIEWS.find((r) => r.name === params.get('view')) ?? INVOICE_REPORT_VIEWS[0];
  const views = (
    <Tabs
      value={report.name}
      aria-label={translate('app.invoice_report.views')}
      variant="scrollable"
      // Within the page's width on a phone (as the lists' tabs).
      sx={{ contain: 'inline-size', mb: 2 }}
    >
      {INVOICE_REPORT_VIEWS.map((r, i) => (
        <Tab
          key={r.name}
          value={r.name}
          label={r.label}
          component={Link}
          to={i === 0 ? '/report/InvoiceReport' : `/report/InvoiceReport?view=${r.name}`}
        />
      ))}
    </Tabs>
  );
  return <ReportView key={report.name} report={report} title={translate('app.screens.invoice_report')} views={views} />;
}
