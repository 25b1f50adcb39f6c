import { useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  FormControlLabel,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableFooter,
  TableHead,
  TableRow,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
  type ChipProps,
} from '@mui/material';
import { formatPounds } from '../../../core/engine/money';
import { SignaturePad } from './SignaturePad';
import { say } from './say';
import { hoursText } from './format';

/** A line as the client reviews it: what was booked, what was worked, the hours and the charge (never pay). */
export interface ReviewLine {
  id: number;
  work_date: string;
  staff: string | null;
  role: string | null;
  site: string | null;
  scheduled_start: string;
  scheduled_end: string;
  actual_start: string | null;
  actual_end: string | null;
  break_minutes: number | null;
  hours: number | null;
  charge: number | null;
  status: 'pending' | 'signed' | 'disputed' | 'verified';
  dispute_reason?: string | null;
}

export interface Approval {
  line_ids: number[];
  signer_name: string;
  signature: string;
}

const COLOUR: Record<ReviewLine['status'], ChipProps['color']> = {
  pending: 'default',
  signed: 'success',
  disputed: 'warning',
  verified: 'info',
};

/** 'HH:mm' on the agency's clock (the browser's own zone when none is given). */
function clock(iso: string | null, timeZone?: string) {
  if (!iso) return '—';
  return new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone }).format(
    new Date(iso),
  );
}
const span = (from: string | null, to: string | null, timeZone?: string) =>
  `${clock(from, timeZone)}–${clock(to, timeZone)}`;

/**
 * The review of a timesheet's lines, for the client: in their panel, or through the e-mailed link without an
 * account. The client chooses lines, then approves them with their name and a drawn signature, or disputes them
 * with a reason. In the panel those are two actions (approving nothing chosen approves every line awaiting
 * signature); the link runs one, so there the chosen lines are disputed and the others signed in one submission.
 */
export function TimesheetReview({
  lines,
  mode,
  timeZone,
  onApprove,
  onDispute,
  readOnly = false,
}: {
  lines: ReviewLine[];
  /** Only the lines: nothing to approve or dispute here (signed, or the user may not sign). */
  readOnly?: boolean;
  mode: 'panel' | 'link';
  timeZone?: string;
  onApprove: (a: Approval & { dispute_line_ids?: number[]; dispute_reason?: string }) => Promise<void>;
  /** The panel's dispute action (the link disputes through onApprove). */
  onDispute?: (d: { line_ids: number[]; reason: string }) => Promise<void>;
}) {
  // The theme's breakpoints, or MUI's default ones on a page without a theme of its own.
  const phone = useMediaQuery(useTheme().breakpoints.down('md'));
  const open = readOnly ? [] : lines.filter((l) => l.status === 'pending');
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [signer, setSigner] = useState('');
  const [signature, setSignature] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [disputing, setDisputing] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const toggle = (id: number) =>
    setChosen((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allChosen = open.length > 0 && open.every((l) => chosen.has(l.id));
  const chooseAll = () => setChosen(allChosen ? new Set() : new Set(open.map((l) => l.id)));

  const total = lines.reduce(
    (t, l) => ({ hours: t.hours + Number(l.hours ?? 0), charge: t.charge + Number(l.charge ?? 0) }),
    { hours: 0, charge: 0 },
  );

  const failed = (e: unknown) => {
    const body = (e as { body?: { errors?: Record<string, string> } }).body;
    setErrors({ ...(body?.errors ?? {}), _: e instanceof Error ? e.message : String(e) });
    setBusy(false);
  };
  // Once sent, the chosen lines are signed or disputed: nothing stays chosen for the lines that remain (29.15).
  const done = () => {
    setChosen(new Set());
    setReason('');
    setDisputing(false);
    setBusy(false);
  };
  const signatureProblems = () => {
    const p: Record<string, string> = {};
    if (!signer.trim()) p.signer_name = say('signer_name_missing');
    if (!signature) p.signature = say('signature.missing');
    return p;
  };

  const approve = async (e: FormEvent) => {
    e.preventDefault();
    const p = signatureProblems();
    setErrors(p);
    if (Object.keys(p).length) return;
    setBusy(true);
    try {
      await onApprove({ line_ids: [...chosen], signer_name: signer.trim(), signature: signature! });
      done();
    } catch (err) {
      failed(err);
    }
  };
  const dispute = async (e: FormEvent) => {
    e.preventDefault();
    const p: Record<string, string> = mode === 'link' ? signatureProblems() : {};
    if (chosen.size === 0) p._ = say('review.none_chosen');
    if (!reason.trim()) p.reason = say('review.dispute_reason_missing');
    setErrors(p);
    if (Object.keys(p).length) return;
    setBusy(true);
    try {
      if (mode === 'link')
        await onApprove({
          line_ids: [],
          signer_name: signer.trim(),
          signature: signature!,
          dispute_line_ids: [...chosen],
          dispute_reason: reason.trim(),
        });
      else await onDispute!({ line_ids: [...chosen], reason: reason.trim() });
      done();
    } catch (err) {
      failed(err);
    }
  };

  const checkbox = (l: ReviewLine) =>
    l.status === 'pending' && !readOnly ? (
      <Checkbox
        checked={chosen.has(l.id)}
        onChange={() => toggle(l.id)}
        slotProps={{
          input: { 'aria-label': say('review.choose_line', { staff: l.staff ?? '', date: l.work_date }) },
        }}
      />
    ) : null;
  const state = (l: ReviewLine) => <Chip size="small" color={COLOUR[l.status]} label={say(`status.${l.status}`)} />;

  const signerFields = (
    <>
      <TextField
        label={say('signer_name')}
        value={signer}
        onChange={(e) => setSigner(e.target.value)}
        error={!!errors.signer_name}
        helperText={errors.signer_name}
        autoComplete="name"
        required
        slotProps={{ htmlInput: { maxLength: 150 } }}
      />
      <SignaturePad onChange={setSignature} typedName={signer} error={errors.signature} />
    </>
  );

  return (
    <Box>
      {lines.length === 0 ? (
        <Typography color="text.secondary">{say('review.no_lines')}</Typography>
      ) : phone ? (
        <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label={say('review.lines')}>
          {lines.map((l) => (
            <Box component="li" key={l.id} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1 }}>
              <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
                {checkbox(l)}
                <Typography sx={{ fontWeight: 'bold', flex: 1 }}>{`${l.work_date} · ${l.staff ?? ''}`}</Typography>
                {state(l)}
              </Stack>
              <Typography variant="body2">{[l.role, l.site].filter(Boolean).join(' at ')}</Typography>
              <Typography variant="body2">
                {`${say('review.scheduled')} ${span(l.scheduled_start, l.scheduled_end, timeZone)} · ${say('review.actual')} ${span(l.actual_start, l.actual_end, timeZone)} · ${say('review.break')} ${say('review.break_minutes', { minutes: l.break_minutes ?? 0 })}`}
              </Typography>
              <Typography variant="body2">
                {`${say('review.hours')} ${hoursText(l.hours)} · ${say('review.charge')} ${formatPounds(Number(l.charge ?? 0))}`}
              </Typography>
              {l.dispute_reason && l.status === 'disputed' && (
                <Typography variant="body2" color="warning.dark">
                  {l.dispute_reason}
                </Typography>
              )}
            </Box>
          ))}
        </Stack>
      ) : (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label={say('review.lines')}>
            <TableHead>
              <TableRow>
                <TableCell padding="checkbox">
                  {open.length > 0 && (
                    <Checkbox
                      checked={allChosen}
                      indeterminate={chosen.size > 0 && !allChosen}
                      onChange={chooseAll}
                      slotProps={{ input: { 'aria-label': say('review.choose_all') } }}
                    />
                  )}
                </TableCell>
                <TableCell>{say('review.date')}</TableCell>
                <TableCell>{say('review.staff')}</TableCell>
                <TableCell>{say('review.role')}</TableCell>
                <TableCell>{say('review.site')}</TableCell>
                <TableCell>{say('review.scheduled')}</TableCell>
                <TableCell>{say('review.actual')}</TableCell>
                <TableCell align="right">{say('review.break')}</TableCell>
                <TableCell align="right">{say('review.hours')}</TableCell>
                <TableCell align="right">{say('review.charge')}</TableCell>
                <TableCell>{say('review.state')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {lines.map((l) => (
                <TableRow key={l.id}>
                  <TableCell padding="checkbox">{checkbox(l)}</TableCell>
                  <TableCell>{l.work_date}</TableCell>
                  <TableCell>{l.staff}</TableCell>
                  <TableCell>{l.role}</TableCell>
                  <TableCell>{l.site}</TableCell>
                  <TableCell>{span(l.scheduled_start, l.scheduled_end, timeZone)}</TableCell>
                  <TableCell>{span(l.actual_start, l.actual_end, timeZone)}</TableCell>
                  <TableCell align="right">{say('review.break_minutes', { minutes: l.break_minutes ?? 0 })}</TableCell>
                  <TableCell align="right">{hoursText(l.hours)}</TableCell>
                  <TableCell align="right">{formatPounds(Number(l.charge ?? 0))}</TableCell>
                  <TableCell>
                    {state(l)}
                    {l.dispute_reason && l.status === 'disputed' && (
                      <Typography variant="body2" color="warning.dark">
                        {l.dispute_reason}
                      </Typography>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
            <TableFooter>
              <TableRow>
                <TableCell colSpan={8}>{say('review.total')}</TableCell>
                <TableCell align="right">{hoursText(total.hours)}</TableCell>
                <TableCell align="right">{formatPounds(total.charge)}</TableCell>
                <TableCell />
              </TableRow>
            </TableFooter>
          </Table>
        </Box>
      )}
      {phone && lines.length > 0 && (
        <Typography sx={{ mt: 1, fontWeight: 'bold' }}>
          {`${say('review.total')}: ${say('review.hours')} ${hoursText(total.hours)} · ${formatPounds(total.charge)}`}
        </Typography>
      )}

      {readOnly ? null : open.length === 0 ? (
        <Alert severity="info" sx={{ mt: 2 }}>
          {say('review.nothing_to_sign')}
        </Alert>
      ) : (
        <Box sx={{ mt: 2 }}>
          {phone && (
            <FormControlLabel
              control={<Checkbox checked={allChosen} onChange={chooseAll} />}
              label={say('review.choose_all')}
            />
          )}
          <Typography variant="body2" role="status">
            {say('review.chosen', { smart_count: chosen.size })}
          </Typography>
          {errors._ && (
            <Alert severity="error" sx={{ my: 1 }}>
              {errors._}
            </Alert>
          )}
          {!disputing ? (
            <Box
              component="form"
              onSubmit={approve}
              noValidate
              sx={{ display: 'flex', flexDirection: 'column', gap: 2, maxWidth: 560 }}
            >
              <Typography variant="body2" color="text.secondary">
                {say('review.approve_help')}
              </Typography>
              {signerFields}
              <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
                <Button type="submit" variant="contained" disabled={busy}>
                  {say('review.approve')}
                </Button>
                <Button color="warning" onClick={() => setDisputing(true)} disabled={busy}>
                  {say('review.dispute')}
                </Button>
              </Stack>
            </Box>
          ) : (
            <Box
              component="form"
              onSubmit={dispute}
              noValidate
              sx={{ display: 'flex', flexDirection: 'column', gap: 2, maxWidth: 560 }}
            >
              <TextField
                label={say('review.dispute_reason')}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                error={!!errors.reason || !!errors.dispute_reason}
                helperText={errors.reason ?? errors.dispute_reason}
                multiline
                minRows={3}
                required
                slotProps={{ htmlInput: { maxLength: 2000 } }}
              />
              {mode === 'link' && (
                <>
                  <Typography variant="body2" color="text.secondary">
                    {say('review.link_dispute_help')}
                  </Typography>
                  {signerFields}
                </>
              )}
              <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
                <Button type="submit" variant="contained" color="warning" disabled={busy}>
                  {say('review.dispute_send')}
                </Button>
                <Button onClick={() => setDisputing(false)} disabled={busy}>
                  {say('review.cancel')}
                </Button>
              </Stack>
            </Box>
          )}
        </Box>
      )}
    </Box>
  );
}
