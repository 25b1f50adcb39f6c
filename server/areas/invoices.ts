import {
  invoiceLinesBehaviour,
  invoiceRunsBehaviour,
  invoicesBehaviour,
  paymentAllocationsBehaviour,
  paymentsBehaviour,
} from '../behaviours/invoices.js';
import { invoiceRun } from '../services/invoicing.js';
import { seedInvoices } from '../seed/invoices.js';
import type { ServerArea } from './area.js';
import { invoiceResources } from '../../core/resources/invoices/resource.js';
import { invoiceExportBatches } from '../../core/resources/invoices/exportBatches.js';
import { invoiceExportRoutes } from '../exports/invoices.js';

export const invoicesArea: ServerArea = {
  name: 'invoices',
  declarations: [...invoiceResources, invoiceExportBatches],
  routes: [invoiceExportRoutes],
  // After the timesheets: the demo's invoices bill their signed work.
  seed: seedInvoices,
  behaviours: {
    invoices: invoicesBehaviour,
    invoice_lines: invoiceLinesBehaviour,
    invoice_runs: invoiceRunsBehaviour,
    payments: paymentsBehaviour,
    payment_allocations: paymentAllocationsBehaviour,
  },
  jobKinds: [invoiceRun],
};
