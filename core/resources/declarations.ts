import type { ResourceDeclaration } from '../engine/types';
import { clients } from './clients/resource';
import { sites } from './sites/resource';
import { candidates } from './candidates/resource';
import { settingsResources } from './settings/resources';
import { complianceResources } from './compliance/resource';
import { auditEntries } from './audit/resource';
import { rateResources } from './rates/resource';
import { shiftResources } from './shifts/resource';
import { communicationResources } from './communication/resource';
import { notesResources } from './notes/resource';
import { staffLogins, users } from './users/resource';
import { timesheetResources } from './timesheets/resource';
import { invoiceResources } from './invoices/resource';
import { invoiceExportBatches } from './invoices/exportBatches';
import { payrollResources } from './payroll/resource';
import { invoiceSettingsResources } from './invoices/settings';

/** Every entity of the product, declared once. The server builds its API from this list, the app its screens. */
export const declarations: ResourceDeclaration[] = [
  clients,
  sites,
  candidates,
  ...settingsResources,
  ...complianceResources,
  ...rateResources,
  ...shiftResources,
  ...communicationResources,
  ...notesResources,
  ...timesheetResources,
  ...invoiceResources,
  invoiceExportBatches,
  ...payrollResources,
  ...invoiceSettingsResources,
  users,
  staffLogins,
  auditEntries,
];

export const declarationByName = new Map(declarations.map((d) => [d.name, d]));
