import { useState } from 'react';
import { Box, Button, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { request } from '../../providers/request';
import type { BankDetailsAnswer } from '../../../core/contracts/payroll';
import type { Static } from 'typebox';

type Details = Static<typeof BankDetailsAnswer>['data'];

/**
 * A staff member's bank details on their profile (issue 33): the masked line (their last digits: only admins
 * receive it), and "Show in full" for the details themselves, which the server records in the staff member's history
 * each time. Hidden again with "Hide"; never kept beyond this screen.
 */
export function BankDetailsField(_: { source: string; label: string }) {
  const translate = useTranslate();
  const record = useRecordContext();
  const [details, setDetails] = useState<Details | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!record?.bank_details_masked) return null;
  const show = async () => {
    setBusy(true);
    setError(null);
    try {
      setDetails((await request<{ data: Details }>(`/candidates/${record.id}/bank_details`)).data);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const rows: [string, string | null][] = details
    ? [
        ['sort_code', details.sort_code],
        ['account_number', details.account_number],
        ['account_name', details.account_name],
        ['roll_number', details.roll_number],
      ]
    : [];
  return (
    <Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
        <Typography variant="body2" data-testid="bank-details-masked">
          {String(record.bank_details_masked)}
        </Typography>
        <Button
          size="small"
          disabled={busy}
          aria-expanded={details !== null}
          aria-controls="bank-details-full"
          onClick={() => (details ? setDetails(null) : show())}
        >
          {translate(details ? 'app.bank_details.hide' : 'app.bank_details.show')}
        </Button>
      </Box>
      <Box id="bank-details-full" role="region" aria-label={translate('app.bank_details.shown')} hidden={!details}>
        {details && (
          <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, my: 1 }}>
            {rows
              .filter(([, v]) => v)
              .map(([k, v]) => (
                <Box key={k} sx={{ display: 'contents' }}>
                  <Typography component="dt" variant="body2" color="text.secondary">
                    {translate(`app.bank_details.${k}`)}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0, fontFamily: 'monospace' }}>
                    {v}
                  </Typography>
                </Box>
              ))}
          </Box>
        )}
      </Box>
      {error && (
        <Typography role="alert" color="error" variant="body2">
          {error}
        </Typography>
      )}
    </Box>
  );
}
