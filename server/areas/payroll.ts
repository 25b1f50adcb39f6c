import { payrollRoutes } from '../routes/payroll.js';
import type { ServerArea } from './area.js';

/** Staff payroll (issue 33). So far the gross-to-net calculation; pay runs and payslips join it here. */
export const payrollArea: ServerArea = {
  name: 'payroll',
  declarations: [],
  routes: [payrollRoutes],
};
