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

/**
 * Client invoices (issue 32), generated from their declarations at the spec's routes: the list with its tabs by
 * state (/invoice/client-invoice), the invoice with its lines (/invoice/client-invoice/client-InvoiceView/{id}) and
 * the runs (/invoice/GenerateView), and the credit notes with their lines.
 */
const area: Area = {
  resources: [
    buildResource(invoices, { icon: ReceiptLongIcon }),
    buildResource(invoiceLines),
    buildResource(invoiceRuns),
    buildResource(creditNotes),
    buildResource(creditNoteLines),
    buildResource(payments),
    buildResource(paymentAllocations),
  ],
};

export default area;
