import { useId, useState } from 'react';
import {
  Alert,
  Button as MuiButton,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  TextField,
  Typography,
} from '@mui/material';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { api } from '../../providers/http';
import { hours, money, shiftWhen, unwrap, useAgencyTimeZone, useApiGet, useRole } from './shared';
import { CANCEL_PARTY } from '../../../core/resources/shifts/resource';

export interface CancellationPreview {
  hours: number;
  charge: number;
  message?: string;
  /** False when it cannot be cancelled (ended, or started for a client user); `message` says why. */
  allowed?: boolean;
}

/** What cancelling now costs, in words: "Cancelling now charges 4 hours: £98.00." */
export function chargeSentence(p: CancellationPreview | undefined, translate: (k: string, o?: any) => string): string {
  if (!p) return translate('app.shifts.cancel.rule');
  if (!p.charge) return translate('app.shifts.cancel.free');
  return translate('app.shifts.cancel.charges', {
    hours: hours(p.hours),
    smart_count: p.hours,
    charge: money(p.charge),
  });
}

/**
 * Cancelling a shift: asks the reason and, before confirming, says the late-cancellation charge that cancelling
 * now would bring (the server's preview, which applies the client's rule); then runs the cancel action.
 */
export function CancelDialog({
  shift,
  onClose,
  onCancelled,
}: {
  shift: { id: number | string; start_at?: string; end_at?: string };
  onClose: () => void;
  onCancelled?: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const tz = useAgencyTimeZone();
  const titleId = useId();
  // Agency users say whose request it is (only the client's own late cancellation of a booked shift is charged).
  const { loginType } = useRole();
  const agency = loginType === 'agency';
  const [requestedBy, setRequestedBy] = useState('agency');
  const partyId = useId();
  const preview = useApiGet<{ data: CancellationPreview }>(
    `/shifts/${shift.id}/cancellation${agency ? `?requested_by=${requestedBy}` : ''}`,
  );
  const p = preview.data ? unwrap<CancellationPreview>(preview.data) : undefined;
  const refused = p?.allowed === false;
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (!reason.trim()) return setError(translate('app.shifts.cancel.reason_required'));
    setBusy(true);
    setRefusal(null);
    try {
      await api(`/shifts/${shift.id}/actions/cancel`, {
        method: 'POST',
        json: { reason: reason.trim(), ...(agency ? { requested_by: requestedBy } : {}) },
      });
      notify('app.shifts.cancel.done', { type: 'success' });
      refresh();
      onCancelled?.();
      onClose();
    } catch (e: any) {
      const fieldError = e?.body?.errors?.reason;
      if (fieldError) setError(fieldError);
      else setRefusal(e?.message ?? 'Failed');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>
        {translate('app.shifts.cancel.title', { when: shiftWhen(shift.start_at, shift.end_at, tz) })}
      </DialogTitle>
      <DialogContent>
        {preview.loading ? (
          <CircularProgress size={20} aria-label={translate('app.shifts.cancel.pricing')} />
        ) : (
          <Alert
            severity={refused ? 'error' : p?.charge ? 'warning' : 'info'}
            data-testid="cancellation-charge"
            sx={{ mb: 2 }}
          >
            {p?.message ?? chargeSentence(p, translate)}
          </Alert>
        )}
        {agency && (
          <FormControl sx={{ mb: 2 }}>
            <FormLabel id={partyId}>{translate('app.shifts.cancel.requested_by')}</FormLabel>
            <RadioGroup
              row
              aria-labelledby={partyId}
              value={requestedBy}
              onChange={(e) => setRequestedBy(e.target.value)}
            >
              {CANCEL_PARTY.map((c) => (
                <FormControlLabel
                  key={c.id}
                  value={c.id}
                  control={<Radio />}
                  label={translate(`app.shifts.cancel.parties.${c.id}`)}
                />
              ))}
            </RadioGroup>
          </FormControl>
        )}
        <TextField
          label={translate('app.shifts.cancel.reason')}
          value={reason}
          onChange={(e) => {
            setReason(e.target.value);
            setError(null);
          }}
          multiline
          minRows={2}
          fullWidth
          required
          error={!!error}
          helperText={error ?? ' '}
          slotProps={{ htmlInput: { maxLength: 1000 } }}
        />
        {refusal && (
          <Alert severity="error" role="alert">
            {refusal}
          </Alert>
        )}
        <Typography variant="body2" color="text.secondary">
          {translate('app.shifts.cancel.explain')}
        </Typography>
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={onClose}>{translate('app.shifts.cancel.keep')}</MuiButton>
        <MuiButton color="error" variant="contained" onClick={confirm} disabled={busy || refused}>
          {translate('app.shifts.cancel.confirm')}
        </MuiButton>
      </DialogActions>
    </Dialog>
  );
}
