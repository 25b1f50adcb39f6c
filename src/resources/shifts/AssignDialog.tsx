import { useEffect, useId, useRef, useState } from 'react';
import {
  Alert,
  Autocomplete,
  Box,
  Button as MuiButton,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useGetList, useNotify, useRefresh, useTranslate } from 'react-admin';
import { api } from '../../providers/http';
import {
  awrText,
  shiftWhen,
  unwrap,
  useAgencyTimeZone,
  useApiGet,
  useRole,
  type CheckAnswer,
  type Finding,
  type Suggestion,
} from './shared';

interface Picked {
  candidate_id: number;
  name: string;
}

/** The findings of one kind, each in words. */
function Findings({
  title,
  items,
  severity,
}: {
  title: string;
  items: Finding[];
  severity: 'error' | 'warning' | 'info';
}) {
  if (!items.length) return null;
  return (
    <Alert severity={severity} sx={{ mt: 1 }} data-testid={`check-${severity}`}>
      <Typography component="h3" variant="subtitle2">
        {title}
      </Typography>
      <List dense disablePadding sx={{ listStyle: 'disc', pl: 2 }}>
        {items.map((f) => (
          <ListItem key={f.code + f.message} disablePadding sx={{ display: 'list-item' }}>
            {f.message}
          </ListItem>
        ))}
      </List>
    </Alert>
  );
}

/** Anyone in the agency, found by name: the staff search of the assign dialog. */
function StaffPicker({ onPick }: { onPick: (p: Picked | null) => void }) {
  const translate = useTranslate();
  const [q, setQ] = useState('');
  const { data = [], isPending } = useGetList('candidates', {
    filter: q ? { q } : {},
    pagination: { page: 1, perPage: 20 },
    sort: { field: 'last_name', order: 'ASC' },
  });
  return (
    <Autocomplete
      options={data}
      loading={isPending}
      filterOptions={(x) => x}
      getOptionLabel={(c: any) => `${c.first_name} ${c.last_name}`}
      isOptionEqualToValue={(a: any, b: any) => a.id === b.id}
      onInputChange={(_, value) => setQ(value)}
      onChange={(_, c: any) => onPick(c ? { candidate_id: c.id, name: `${c.first_name} ${c.last_name}` } : null)}
      renderInput={(params) => <TextField {...params} label={translate('app.shifts.assign.search')} size="small" />}
      sx={{ maxWidth: 420, mt: 1 }}
    />
  );
}

/** The checks for one staff member on this shift, the override reason where allowed, and Assign. */
function CheckAndAssign({ shiftId, picked, onDone }: { shiftId: number | string; picked: Picked; onDone: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { role } = useRole();
  const reasonId = useId();
  const { data, error, loading } = useApiGet<CheckAnswer>(
    `/shifts/${shiftId}/check?candidate_id=${picked.candidate_id}`,
  );
  const check = data ? unwrap<CheckAnswer>(data) : undefined;
  const [reason, setReason] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The result appears below the suggestions, out of sight in a full dialog: brought into view when it appears
  // and again when the checks arrive (optional call: jsdom has no scrolling).
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    section.current?.scrollIntoView?.({ block: 'start' });
  }, [check]);
  // Hard checks refuse, except those declared overridable, shown with the soft ones (pay below the legal minimum no
  // longer is: a PAYE worker is refused, anyone else warned; issue 30.6).
  const hard = (check?.hard ?? []).filter((f) => !f.overridable);
  const soft = [...(check?.hard ?? []).filter((f) => f.overridable), ...(check?.soft ?? [])];
  const canOverride = role === 'admin';
  const blocked = !check || hard.length > 0 || (soft.length > 0 && (!canOverride || reason.trim() === ''));
  const assign = async () => {
    setBusy(true);
    setRefusal(null);
    try {
      await api(`/shifts/${shiftId}/actions/assign`, {
        method: 'POST',
        json: { candidate_id: picked.candidate_id, ...(soft.length ? { override_reason: reason.trim() } : {}) },
      });
      notify('app.shifts.assign.done', { type: 'success', messageArgs: { name: picked.name } });
      onDone();
    } catch (e: any) {
      // The server's words, as they are: it knows what changed since the check.
      setRefusal([e?.message, ...Object.values(e?.body?.errors ?? {})].filter(Boolean).join(' '));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box
      component="section"
      ref={section}
      aria-label={translate('app.shifts.assign.checks_for', { name: picked.name })}
      sx={{ mt: 2 }}
      data-testid="assign-check"
    >
      <Typography component="h3" variant="subtitle1">
        {translate('app.shifts.assign.checks_for', { name: picked.name })}
      </Typography>
      {loading && <CircularProgress size={20} aria-label={translate('app.shifts.assign.checking')} />}
      {error && <Alert severity="error">{error}</Alert>}
      {check && (
        <>
          {hard.length === 0 && soft.length === 0 && (
            <Alert severity="success" sx={{ mt: 1 }}>
              {translate('app.shifts.assign.all_pass')}
            </Alert>
          )}
          <Findings title={translate('app.shifts.assign.hard')} items={hard} severity="error" />
          <Findings
            title={translate('app.shifts.assign.overridable')}
            items={soft.filter((f) => f.overridable)}
            severity="error"
          />
          <Findings
            title={translate('app.shifts.assign.soft')}
            items={soft.filter((f) => !f.overridable)}
            severity="warning"
          />
          <Findings title={translate('app.shifts.assign.info')} items={check.info ?? []} severity="info" />
          {/* The count in words, unless the server already said it among the information. */}
          {!(check.info ?? []).some((f) => f.code === 'awr') && awrText(check.awr) && (
            <Typography variant="body2" sx={{ mt: 1 }}>
              {awrText(check.awr)}
            </Typography>
          )}
          {soft.length > 0 &&
            hard.length === 0 &&
            (canOverride ? (
              <TextField
                id={reasonId}
                label={translate('app.shifts.assign.override_reason')}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                multiline
                minRows={2}
                fullWidth
                required
                helperText={translate('app.shifts.assign.override_hint')}
                sx={{ mt: 2 }}
              />
            ) : (
              <Typography sx={{ mt: 1 }}>{translate('app.shifts.assign.admin_only')}</Typography>
            ))}
        </>
      )}
      {refusal && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {refusal}
        </Alert>
      )}
      <Box sx={{ mt: 2 }}>
        <MuiButton variant="contained" onClick={assign} disabled={blocked || busy}>
          {translate(
            soft.length && hard.length === 0
              ? 'app.shifts.assign.override_and_assign'
              : 'app.shifts.assign.assign_named',
            { name: picked.name },
          )}
        </MuiButton>
      </Box>
    </Box>
  );
}

/** Suggested staff: those who pass the hard checks, best first; a row without soft findings assigns in one click. */
function Suggestions({
  shiftId,
  onPick,
  onAssigned,
}: {
  shiftId: number | string;
  onPick: (p: Picked) => void;
  onAssigned: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const { data, error, loading } = useApiGet<Suggestion[] | { data: Suggestion[] }>(`/shifts/${shiftId}/suggestions`);
  const rows = data ? unwrap<Suggestion[]>(data) : [];
  const [busy, setBusy] = useState<number | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const oneClick = async (s: Suggestion) => {
    if (s.soft?.length) return onPick({ candidate_id: s.candidate_id, name: s.name });
    setBusy(s.candidate_id);
    setRefusal(null);
    try {
      await api(`/shifts/${shiftId}/actions/assign`, { method: 'POST', json: { candidate_id: s.candidate_id } });
      notify('app.shifts.assign.done', { type: 'success', messageArgs: { name: s.name } });
      onAssigned();
    } catch (e: any) {
      setRefusal(e?.message ?? 'Failed');
    } finally {
      setBusy(null);
    }
  };
  return (
    <Box component="section" aria-labelledby="suggested-title">
      <Typography id="suggested-title" component="h3" variant="subtitle1">
        {translate('app.shifts.assign.suggested')}
      </Typography>
      {loading && <CircularProgress size={20} aria-label={translate('app.shifts.assign.loading')} />}
      {error && <Alert severity="error">{error}</Alert>}
      {!loading && !error && rows.length === 0 && (
        <Typography color="text.secondary">{translate('app.shifts.assign.no_suggestions')}</Typography>
      )}
      {rows.length > 0 && (
        <Table size="small" aria-labelledby="suggested-title">
          <TableHead>
            <TableRow>
              <TableCell>{translate('app.shifts.assign.name')}</TableCell>
              <TableCell>{translate('app.shifts.assign.job_role')}</TableCell>
              <TableCell>{translate('app.shifts.assign.available')}</TableCell>
              <TableCell>{translate('app.shifts.assign.preferred')}</TableCell>
              <TableCell align="right">{translate('app.shifts.assign.hours_week')}</TableCell>
              <TableCell>{translate('app.shifts.assign.notes')}</TableCell>
              <TableCell>
                <span style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
                  {translate('app.shifts.assign.assign')}
                </span>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((s) => (
              <TableRow key={s.candidate_id} data-testid="suggestion">
                <TableCell>{s.name}</TableCell>
                <TableCell>{s.job_role ?? '—'}</TableCell>
                {/* In words: "No" would read as a refusal when nothing was entered ("Not set"). */}
                <TableCell>{translate(`app.shifts.assign.availability.${s.availability}`)}</TableCell>
                <TableCell>
                  {s.preferred == null ? '—' : translate(s.preferred ? 'app.shifts.yes' : 'app.shifts.no')}
                </TableCell>
                <TableCell align="right">{s.hours_this_week ?? 0}</TableCell>
                <TableCell>{(s.soft ?? []).map((f) => f.message).join(' ') || '—'}</TableCell>
                <TableCell>
                  <MuiButton
                    size="small"
                    variant="outlined"
                    disabled={busy !== null}
                    onClick={() => oneClick(s)}
                    aria-label={translate('app.shifts.assign.assign_named', { name: s.name })}
                  >
                    {translate(s.soft?.length ? 'app.shifts.assign.review' : 'app.shifts.assign.assign')}
                  </MuiButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {refusal && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {refusal}
        </Alert>
      )}
    </Box>
  );
}

/**
 * Assigning a shift: the suggested staff (one click each), or anyone found by name; before assigning, the
 * booking checks for that person: hard failures in words with Assign disabled, soft ones with an override
 * reason (admins only), and the Agency Workers Regulations count. The server's refusal is shown as it says it.
 */
export function AssignDialog({
  shift,
  onClose,
  onAssigned,
}: {
  shift: { id: number | string; start_at?: string; end_at?: string };
  onClose: () => void;
  onAssigned?: () => void;
}) {
  const translate = useTranslate();
  const refresh = useRefresh();
  const tz = useAgencyTimeZone();
  const titleId = useId();
  const [picked, setPicked] = useState<Picked | null>(null);
  const done = () => {
    refresh();
    onAssigned?.();
    onClose();
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>
        {translate('app.shifts.assign.title', { when: shiftWhen(shift.start_at, shift.end_at, tz) })}
      </DialogTitle>
      <DialogContent>
        <Suggestions shiftId={shift.id} onPick={setPicked} onAssigned={done} />
        <Typography component="h3" variant="subtitle1" sx={{ mt: 3 }}>
          {translate('app.shifts.assign.someone_else')}
        </Typography>
        <StaffPicker onPick={setPicked} />
        {picked && <CheckAndAssign key={picked.candidate_id} shiftId={shift.id} picked={picked} onDone={done} />}
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={onClose}>{translate('ra.action.close')}</MuiButton>
      </DialogActions>
    </Dialog>
  );
}
