import { Route } from 'react-router';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import type { Area } from '../area';
import { buildResource } from '../../engine/react/buildResource';
import {
  creditNoteLines,
  creditNotes,
  invoiceLines,
  invoiceRuns,
  invoices,
  paymentAllocations,
  payments,
} from '../../../core/resources/invoices/resource';
import { invoiceExportBatches } from '../../../core/resources/invoices/exportBatches';
import { ClientInvoice, ClientInvoices } from './ClientInvoices';
import { AccountingExportButton, DownloadAgainButton, EarlierExportsButton } from './AccountingExport';
import { InvoiceShow } from './InvoiceShow';
import { UblButton } from './UblButton';
import { InvoiceEdit } from './InvoiceEdit';
import { InvoiceTemplateView } from './templates';
import { generateRoutes, RunShow } from './generate';

/**
 * Client invoices (issue 32), generated from their declarations at the spec's routes: the list with its tabs by
 * state, filters, totals and bulk issue and send (/invoice/client-invoice); the invoice with its lines, totals by
 * rate, payments, credit notes and history (/invoice/client-invoice/client-InvoiceView/{id}); its two printable
 * layouts (/invoice/client-InvoiceView/{id}/template1|template2); the draft's editor (/edit/{id}/{templateType},
 * also /invoice/edit/…); the runs (/invoice/GenerateView), the earlier accounting exports (/invoice/exports), and the
 * credit notes with their lines.
 */
const area: Area = {
  resources: [
    buildResource(invoices, {
      icon: ReceiptLongIcon,
      // The accounting export (Xero, QuickBooks Online) beside the list's own CSV and Excel, and the exports made.
      listActions: (
        <>
          <AccountingExportButton />
          <EarlierExportsButton />
        </>
      ),
      show: InvoiceShow,
      extraRoutes: (options) => [
        <Route
          key="t1"
          path="/invoice/client-InvoiceView/:id/template1"
          element={<InvoiceTemplateView template="template1" />}
        />,
        <Route
          key="t2"
          path="/invoice/client-InvoiceView/:id/template2"
          element={<InvoiceTemplateView template="template2" />}
        />,
        <Route key="edit" path="/edit/:id/:templateType" element={<InvoiceEdit {...options} />} />,
        <Route key="edit2" path="/invoice/edit/:id/:templateType" element={<InvoiceEdit {...options} />} />,
      ],
    }),
    buildResource(invoiceLines),
    buildResource(invoiceRuns, { show: RunShow }),
    // An issued credit note's e-invoice beside its PDF, as on its invoice's page.
    buildResource(creditNotes, { showActions: <UblButton resource="credit_notes" /> }),
    buildResource(creditNoteLines),
    // The accounting exports made (/invoice/exports), each downloadable again from its row and from its page.
    buildResource(invoiceExportBatches, {
      showActions: <DownloadAgainButton />,
      rowActions: <DownloadAgainButton inRow />,
    }),
    buildResource(payments),
    buildResource(paymentAllocations),
  ],
  // The client panel's own invoices and credit notes (ClientInvoices.tsx).
  clientRoutes: [
    <Route key="client-invoices" path="/client/invoice" element={<ClientInvoices />} />,
    <Route key="client-invoice" path="/client/invoice/:id" element={<ClientInvoice />} />,
  ],
  // Generating a run (/invoice/Generate-invoice/{mode}): a screen of its own beside the runs it makes.
  adminRoutes: generateRoutes,
};

export default area;
