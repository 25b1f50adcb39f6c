import { Tab, Tabs } from '@mui/material';
import { usePermissions, useTranslate } from 'react-admin';
import { mayRunReport, type Principal } from '../../core/resources/access';
import { Link, useSearchParams } from 'react-router';
import { ReportView } from '../engine/react/ReportView';
import {
  businessUnitReport,
  clientReport,
  INVOICE_REPORT_VIEWS,
  STAFF_REPORT_VIEWS,
} from '../../core/resources/reports';
import type { ReportDeclaration } from '../../core/engine/reports';

/** /report/ClientReport: per client, site and job role (core/resources/reports.ts clientReport). */
export function ClientReportPage() {
  const translate = useTranslate();
  return <ReportView report={clientReport} title={translate('app.screens.client_report')} />;
}

/**
 * /report/StaffReport: per staff member, two views chosen by tabs kept in the address (`view`): what they did
 * (core/resources/reports.ts staffReport) and where they stand, compliance, AWR and working time (staffStandingReport).
 */
export function StaffReportPage() {
  const translate = useTranslate();
  const labels = [translate('app.staff_report.activity'), translate('app.staff_report.standing')];
  return (
    <ViewsOf
      path="/report/StaffReport"
      views={STAFF_REPORT_VIEWS}
      labelOf={(_r, i) => labels[i]}
      ariaLabel={translate('app.staff_report.views')}
      title={translate('app.screens.staff_report')}
    />
  );
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
 * (core/resources/reports.ts), chosen by tabs kept in the address (`view`, the first when none).
 */
export function InvoiceReportPage() {
  const translate = useTranslate();
  return (
    <ViewsOf
      path="/report/InvoiceReport"
      views={INVOICE_REPORT_VIEWS}
      labelOf={(r) => r.label}
      ariaLabel={translate('app.invoice_report.views')}
      title={translate('app.screens.invoice_report')}
    />
  );
}

/**
 * A report screen of several declared reports (its views), chosen by tabs kept in the address (`view`, the first
 * when none). A tab starts its own report afresh: the other's grouping and period mean nothing to it.
 */
function ViewsOf({
  path,
  views: reports,
  labelOf,
  ariaLabel,
  title,
}: {
  path: string;
  views: readonly ReportDeclaration[];
  labelOf: (r: ReportDeclaration, i: number) => string;
  ariaLabel: string;
  title: string;
}) {
  const [params] = useSearchParams();
  const { permissions } = usePermissions<Principal | null>();
  // The views the user may run (a custom role is granted each on its own); all of them until the session is known.
  const allowed = permissions ? reports.filter((r) => mayRunReport(permissions, r)) : reports;
  const shown = allowed.length ? allowed : reports;
  const report = shown.find((r) => r.name === params.get('view')) ?? shown[0];
  const views = (
    <Tabs
      value={report.name}
      aria-label={ariaLabel}
      variant="scrollable"
      // Within the page's width on a phone (as the lists' tabs).
      sx={{ contain: 'inline-size', mb: 2 }}
    >
      {shown.map((r, i) => (
        <Tab
          key={r.name}
          value={r.name}
          label={labelOf(r, reports.indexOf(r))}
          component={Link}
          to={i === 0 ? path : `${path}?view=${r.name}`}
        />
      ))}
    </Tabs>
  );
  return <ReportView key={report.name} report={report} title={title} views={views} />;
}
