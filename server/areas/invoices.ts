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
import { invoiceSettingsResources } from '../../core/resources/invoices/settings.js';
import { invoiceSettingsBehaviour } from '../behaviours/invoiceSettings.js';
import { invoiceSettingsRoutes } from '../routes/invoiceSettings.js';
import { remindOverdueInvoices } from '../services/invoiceReminders.js';
import { ublRoutes } from '../exports/ubl.js';

export const invoicesArea: ServerArea = {
  name: 'invoices',
  declarations: [...invoiceResources, invoiceExportBatches, ...invoiceSettingsResources],
  routes: [invoiceExportRoutes, invoiceSettingsRoutes, ublRoutes],
  jobs: [{ name: 'invoice-reminders', everyMs: 60 * 60_000, run: remindOverdueInvoices }],
  // After the timesheets and the year of history: the demo's invoices bill their signed work, month by month through
  // the history, so their numbers follow their issue dates.
  seed: seedInvoices,
  seedsAfterHistory: true,
  behaviours: {
    invoices: invoicesBehaviour,
    invoice_lines: invoiceLinesBehaviour,
    invoice_runs: invoiceRunsBehaviour,
    payments: paymentsBehaviour,
    payment_allocations: paymentAllocationsBehaviour,
    invoice_settings: invoiceSettingsBehaviour,
  },
  jobKinds: [invoiceRun],
};
