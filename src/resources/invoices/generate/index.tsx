import { Route } from 'react-router';
import { GENERATE_PATH, GenerateInvoices } from './GenerateInvoices';
import { INVOICE_MODES } from '../../../../core/domain/invoicing/grouping';

export { RunShow } from './RunShow';

/** /invoice/Generate-invoice/{mode}: one screen, a tab per mode (the spec's five addresses). */
export const generateRoutes = INVOICE_MODES.map((m) => (
  <Route key={`generate-${m}`} path={`${GENERATE_PATH}/${m}`} element={<GenerateInvoices />} />
));
