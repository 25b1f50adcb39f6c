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
import { ClientInvoice, ClientInvoices } from './ClientInvoices';
import { AccountingExportButton } from './AccountingExport';

/**
 * Client invoices (issue 32), generated from their declarations at the spec's routes: the list with its tabs by
 * state (/invoice/client-invoice), the invoice with its lines (/invoice/client-invoice/client-InvoiceView/{id}) and
 * the runs (/invoice/GenerateView), and the credit notes with their lines.
 */
const area: Area = {
  resources: [
    // The accounting export (Xero, QuickBooks Online) beside the list's own CSV and Excel.
    buildResource(invoices, { icon: ReceiptLongIcon, listActions: <AccountingExportButton /> }),
    buildResource(invoiceLines),
    buildResource(invoiceRuns),
    buildResource(creditNotes),
    buildResource(creditNoteLines),
    buildResource(payments),
    buildResource(paymentAllocations),
  ],
  // The client panel's own invoices and credit notes (ClientInvoices.tsx).
  clientRoutes: [
    <Route key="client-invoices" path="/client/invoice" element={<ClientInvoices />} />,
    <Route key="client-invoice" path="/client/invoice/:id" element={<ClientInvoice />} />,
  ],
};

export default area;
