import type { ResourceDeclaration } from '../engine/types';
import { clients } from './clients/resource';
import { clientSettings } from './clients/settings';
import { sites } from './sites/resource';
import { candidates } from './candidates/resource';
import { settingsResources } from './settings/resources';
import { agencySettingsResources } from './settings/agency';
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
import { recruitmentResources } from './recruitment/resource';
import { agencyRolesOf } from './roles/resource';

const declared: ResourceDeclaration[] = [
  clients,
  clientSettings,
  sites,
  candidates,
  ...settingsResources,
  ...agencySettingsResources,
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
  ...recruitmentResources,
  users,
  staffLogins,
  auditEntries,
];

/** Every entity of the product, declared once. The server builds its API from this list, the app its screens. */
// The agency's own roles grant privileges of the others (core/resources/roles): made from them, last.
export const agencyRoles = agencyRolesOf(declared);
export const declarations: ResourceDeclaration[] = [...declared, agencyRoles];

export const declarationByName = new Map(declarations.map((d) => [d.name, d]));
