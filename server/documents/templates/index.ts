import type { RecordTemplate } from '../records.js';
import { timesheetRecord } from './timesheet.js';
import { invoiceRecordOne, invoiceRecordTwo } from './invoice.js';
import { payslipRecord } from './payslip.js';
import { creditNoteRecord } from './creditNote.js';

/** The templates a resource's `documents` may name, by name. */
export const RECORD_TEMPLATES: Record<string, RecordTemplate> = {
  timesheet: timesheetRecord,
  // The spec's two invoice layouts, asked for by these names (?template=template1|template2).
  template1: invoiceRecordOne,
  template2: invoiceRecordTwo,
  payslip: payslipRecord,
  credit_note: creditNoteRecord,
};
