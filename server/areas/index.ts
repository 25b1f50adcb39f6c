import type { ServerArea } from './area.js';
import { agencyArea } from './agency.js';
import { clientsArea } from './clients.js';
import { communicationArea } from './communication.js';
import { complianceArea } from './compliance.js';
import { notesArea } from './notes.js';
import { ratesArea } from './rates.js';
import { shiftsArea } from './shifts.js';
import { staffArea } from './staff.js';
import { usersArea } from './users.js';
import { timesheetsArea } from './timesheets.js';
import { invoicesArea } from './invoices.js';
import { payrollArea } from './payroll.js';
import { recruitmentArea } from './recruitment.js';

/**
 * Every area of the server, listed once, in this order (rates before the shifts they price, messages and notes about
 * both). Only the entry points read this list (server/index.ts, server/cli.ts, the app's default): they make its
 * registry (registryOf) and hand it to the app, the job worker and the seed, none of which imports it.
 */
export const areas: ServerArea[] = [
  // First: the agency's own settings (its letterhead) come before anything it prints.
  agencyArea,
  clientsArea,
  staffArea,
  complianceArea,
  ratesArea,
  shiftsArea,
  communicationArea,
  notesArea,
  usersArea,
  // After shifts: timesheets are made of worked ones.
  timesheetsArea,
  // After timesheets: invoices bill their lines.
  invoicesArea,
  payrollArea,
  // After staff: hiring an applicant makes a staff member.
  recruitmentArea,
];
