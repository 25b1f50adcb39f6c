import { useState } from 'react';
import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/GetApp';
import { Link as RouterLink } from 'react-router';
import { useCanAccess, useRecordContext, useTranslate } from 'react-admin';
import { selfBillingAgreements } from '../../../core/resources/payroll/selfBillingAgreements';
import { downloadFrom } from '../../engine/react/download';

/** A pay run's files (GET /api/pay_runs/{id}/files/…, server/exports/payroll.ts). */
export const PAY_RUN_FILES = ['bureau', 'bank', 'self-billing'] as const;

/**
 * The run's files as buttons on its page, for whoever may export pay runs (admins): the payroll bureau's CSV, the
 * bank payments file and the self-billing export, once the run is approved. A file refused (staff paid without bank
 * details) says why under the buttons, in the server's words. Beside them, the way to the self-billing agreements
 * (the export names the one in force on the pay day for each company, or that there is none).
 */
export function PayRunFiles() {
  const translate = useTranslate();
  const run = useRecordContext();
  const { canAccess } = useCanAccess({ resource: 'pay_runs', action: 'export' });
  const [busy, setBusy] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  if (!run || !canAccess) return null;
  const open = run.state === 'approved' || run.state === 'finalised';
  const download = async (file: (typeof PAY_RUN_FILES)[number]) => {
    setBusy(file);
    setRefusal(null);
    try {
      await downloadFrom(`/pay_runs/${run.id}/files/${file}`);
    } catch (e) {
      setRefusal(e instanceof Error ? e.message : translate('app.pay_run_files.failed'));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Box component="section" aria-labelledby="pay-run-files" sx={{ my: 2 }}>
      <Typography variant="subtitle2" component="h2" id="pay-run-files">
        {translate('app.pay_run_files.heading')}
      </Typography>
      <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap', my: 1 }}>
        {PAY_RUN_FILES.map((file) => (
          <Button
            key={file}
            variant="outlined"
            size="small"
            startIcon={<DownloadIcon />}
            disabled={!open || busy !== null}
            onClick={() => download(file)}
          >
            {translate(`app.pay_run_files.${file}`)}
          </Button>
        ))}
        <Button component={RouterLink} to={selfBillingAgreements.routes!.list!} size="small">
          {translate('app.pay_run_files.agreements')}
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {translate('app.pay_run_files.agreements_help')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {translate(
          open
            ? 'app.pay_run_files.help'
            : run.state === 'cancelled'
              ? 'app.pay_run_files.cancelled'
              : 'app.pay_run_files.not_yet',
        )}
      </Typography>
      {refusal && (
        <Alert severity="warning" role="alert" sx={{ mt: 1 }}>
          {refusal}
        </Alert>
      )}
    </Box>
  );
}
