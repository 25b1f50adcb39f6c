import type { AuthzArea } from './area';
import { rates } from './rates';
import { shifts } from './shifts';
import { communication } from './communication';
import { notes } from './notes';
import { chat } from './chat';
import { users } from './users';
import { documents } from './documents';
import { timesheets } from './timesheets';
import { invoices } from './invoices';
import { payroll } from './payroll';
import { dashboard } from './dashboard';
import { reports } from './reports';
import { recruitment } from './recruitment';
import { careers } from './careers';
import { clientSettings } from './clientSettings';
import { agency } from './agency';
import { roles } from './roles';

/** The areas that joined the matrix after the foundation, each in its own file. */
export const areas: AuthzArea[] = [
  rates,
  shifts,
  communication,
  chat,
  notes,
  users,
  documents,
  timesheets,
  invoices,
  payroll,
  dashboard,
  reports,
  recruitment,
  careers,
  clientSettings,
  agency,
  roles,
];
