import { Link as RouterLink } from 'react-router';
import { Box, Link, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useGetList, useGetMany, useRecordContext, useTranslate } from 'react-admin';
import { EngineShow } from '../../../engine/react/show';
import { RunJobProgress } from '../../../engine/react/RunGeneration';
import type { ViewOptions } from '../../../engine/react/viewOptions';
import { formatPounds } from '../../../../core/engine/money';

/** The invoice's own page (the spec's address). */
export const invoicePath = (id: number) => `/invoice/client-invoice/client-InvoiceView/${id}`;

/**
 * /invoice/GenerateView/generateView/{id}: the run's parameters and counts (generated from its declaration), its
 * job's progress while it runs (the page can be left and come back to: the progress is the job's, read again),
 * and the invoices it made, each a link to the invoice.
 */
export function RunShow(options: ViewOptions) {
  return (
    <EngineShow {...options}>
      <RunJobProgress ns="app.invoice_generation" status="state" />
      <RunInvoices />
    </EngineShow>
  );
}

function RunInvoices() {
  const translate = useTranslate();
  const run = useRecordContext();
  const { data: invoices = [], isPending } = useGetList(
    'invoices',
    { filter: { run_id: run?.id }, pagination: { page: 1, perPage: 500 }, sort: { field: 'id', order: 'ASC' } },
    // Read again as the run goes on, so the invoices appear as their clients are billed.
    { enabled: run?.id != null, refetchInterval: run?.state === 'running' ? 2000 : false },
  );
  const { data: clients = [] } = useGetMany('clients', {
    ids: [...new Set(invoices.map((i) => Number(i.client_id)))],
  });
  const clientName = (id: number) => clients.find((c) => Number(c.id) === id)?.name ?? '';
  if (!run) return null;
  return (
    <Box sx={{ my: 2 }}>
      <Typography variant="subtitle1" component="h2" id="run-invoices">
        {translate('app.invoice_generation.made', { smart_count: invoices.length })}
      </Typography>
      {!isPending && invoices.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {translate('app.invoice_generation.none_made')}
        </Typography>
      ) : (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-labelledby="run-invoices">
            <TableHead>
              <TableRow>
                <TableCell>{translate('app.invoice_generation.invoice')}</TableCell>
                <TableCell>{translate('app.invoice_generation.client')}</TableCell>
                <TableCell>{translate('app.invoice_generation.period')}</TableCell>
                <TableCell>{translate('app.invoice_generation.state')}</TableCell>
                <TableCell align="right">{translate('app.invoice_generation.total')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {invoices.map((i) => (
                <TableRow key={i.id}>
                  <TableCell>
                    <Link component={RouterLink} to={invoicePath(Number(i.id))}>
                      {String(i.label ?? i.number ?? `Draft ${i.id}`)}
                    </Link>
                  </TableCell>
                  <TableCell>{clientName(Number(i.client_id))}</TableCell>
                  <TableCell>{`${String(i.period_start ?? '')} – ${String(i.period_end ?? '')}`}</TableCell>
                  <TableCell>{translate(`app.invoice_generation.invoice_state.${String(i.state)}`)}</TableCell>
                  <TableCell align="right">{formatPounds(Number(i.total ?? 0))}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Box>
  );
}
