import { useId, useState } from 'react';
import {
  Alert,
  Autocomplete,
  Box,
  Button as MuiButton,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
  Typography,
} from '@mui/material';
import { useCanAccess, useGetList, useTranslate } from 'react-admin';
import { Link, useNavigate } from 'react-router';
import { api } from '../../providers/http';
import { AssignDialog } from './AssignDialog';
import { CancelDialog } from './CancelDialog';
import { STATUS_COLOURS, money, shiftWhen, useAgencyTimeZone } from './shared';

/** One shift as GET /api/schedule answers it. */
export interface ScheduledShift {
  id: number;
  start_at: string;
  end_at: string;
  status: string;
  state?: string;
  client_id?: number;
  client_name?: string | null;
  site_id?: number;
  site_name?: string | null;
  job_role_id?: number;
  job_role_name?: string | null;
  candidate_id?: number | null;
  candidate_name?: string | null;
  break_minutes?: number | null;
  notes?: string | null;
  charge?: number | null;
  pay?: number | null;
  margin?: number | null;
}

export interface ScheduleFilters {
  client_id?: number | null;
  site_id?: number | null;
  job_role_id?: number | null;
  candidate_id?: number | null;
}

/** The state a shift is drawn in: deleted over its last status. */
export const stateOf = (s: Pick<ScheduledShift, 'status' | 'state'>) => (s.state === 'deleted' ? 'deleted' : s.status);

/** Can be dragged: only shifts still to be worked. */
export const movable = (s: Pick<ScheduledShift, 'status' | 'state'>) =>
  stateOf(s) === 'open' || stateOf(s) === 'assigned';

/** The words on a shift's event or chip. */
export function shiftTitle(s: ScheduledShift, openText: string) {
  return [s.job_role_name, s.site_name, s.candidate_name || openText].filter(Boolean).join(' · ');
}

/** The query string of GET /api/schedule for a range and the filters chosen. */
export function scheduleQuery(from: string, to: string, filters: ScheduleFilters) {
  const q = new URLSearchParams({ from, to });
  for (const [k, v] of Object.entries(filters)) if (v != null && v !== ('' as any)) q.set(k, String(v));
  return q.toString();
}

/** Where a drag puts a shift: new times and, on the staff week, perhaps another staff member. */
export interface MoveTarget {
  start: string;
  end: string;
  candidate_id?: number | null;
}

/** Moves a shift (POST …/actions/move); the server's refusal is thrown with its words. */
export async function moveShift(id: number | string, body: MoveTarget) {
  await api(`/shifts/${id}/actions/move`, { method: 'POST', json: body });
}

/** A refused move in the server's words and, when the filters hide the booking it clashes with, that booking. */
export interface MoveRefusal {
  message: string;
  hiddenClash?: number;
}

interface Clash {
  shift_id: number;
  client_id: number;
  site_id: number | null;
  job_role_id: number;
}
/** A booking the schedule's filters leave out (another client, site or job role than the one filtered on). */
const hiddenBy = (f: ScheduleFilters, c: Clash) =>
  (f.client_id != null && f.client_id !== c.client_id) ||
  (f.site_id != null && f.site_id !== c.site_id) ||
  (f.job_role_id != null && f.job_role_id !== c.job_role_id);

/**
 * What the schedule says of a refused move. A refusal for a clash with a booking the filters hide would point at
 * something the user cannot see: it names that booking so the schedule offers to open it or clear the filters.
 */
export function refusalOf(e: any, filters: ScheduleFilters, fallback: string): MoveRefusal {
  const message = e?.message || fallback;
  const clashes: Clash[] = Array.isArray(e?.body?.clashes) ? e.body.clashes : [];
  const hidden = clashes.find((c) => hiddenBy(filters, c));
  return hidden ? { message, hiddenClash: hidden.shift_id } : { message };
}

/** A refused move: the server's words and, for a clash the filters hide, a way to see it. */
export function MoveRefusalAlert({
  refusal,
  onClose,
  onClearFilters,
}: {
  refusal: MoveRefusal;
  onClose: () => void;
  onClearFilters: () => void;
}) {
  const translate = useTranslate();
  return (
    <Alert severity="error" role="alert" onClose={onClose} sx={{ mb: 1 }}>
      {refusal.message}
      {refusal.hiddenClash != null && (
        <>
          {' '}
          {translate('app.schedule.clash_hidden')}
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>
            <MuiButton
              size="small"
              variant="outlined"
              color="inherit"
              component={Link}
              to={`/shifts/${refusal.hiddenClash}/show`}
            >
              {translate('app.schedule.open_clash')}
            </MuiButton>
            <MuiButton size="small" variant="outlined" color="inherit" onClick={onClearFilters}>
              {translate('app.schedule.clear_filters')}
            </MuiButton>
          </Box>
        </>
      )}
    </Alert>
  );
}

/**
 * Moving a booked shift changes a staff member's and a client's day: the user confirms it first (the calendar and
 * the staff week alike). `other` names the staff member it goes to when that changes too.
 */
export function MoveConfirmDialog({
  shift,
  to,
  other,
  tz,
  onKeep,
  onMove,
}: {
  shift: ScheduledShift;
  to: MoveTarget;
  other?: string | null;
  tz: string;
  onKeep: () => void;
  onMove: () => void;
}) {
  const translate = useTranslate();
  const args = {
    staff: shift.candidate_name ?? '',
    other: other ?? '',
    from: shiftWhen(shift.start_at, shift.end_at, tz),
    to: shiftWhen(to.start, to.end, tz),
  };
  return (
    <Dialog open onClose={onKeep} aria-labelledby="move-confirm-title">
      <DialogTitle id="move-confirm-title">{translate('app.schedule.move_confirm.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {translate(other ? 'app.schedule.move_confirm.text_other' : 'app.schedule.move_confirm.text', args)}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={onKeep} autoFocus>
          {translate('app.schedule.move_confirm.keep')}
        </MuiButton>
        <MuiButton variant="contained" onClick={onMove}>
          {translate('app.schedule.move_confirm.move')}
        </MuiButton>
      </DialogActions>
    </Dialog>
  );
}

/** The colours and their states, in words. */
export function Legend() {
  const translate = useTranslate();
  return (
    <Box
      component="ul"
      aria-label={translate('app.schedule.legend')}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, listStyle: 'none', p: 0, m: 0, mb: 1 }}
    >
      {['open', 'assigned', 'closed', 'cancelled'].map((s) => (
        <Box component="li" key={s} sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
          <Box aria-hidden sx={{ width: 14, height: 14, borderRadius: '3px', bgcolor: STATUS_COLOURS[s] }} />
          <Typography variant="body2">{translate(`app.schedule.states.${s}`)}</Typography>
        </Box>
      ))}
    </Box>
  );
}

/** A filter over one kind of record, found by name. */
function RecordFilter({
  resource,
  label,
  value,
  onChange,
  name,
  filter = {},
}: {
  resource: string;
  label: string;
  value?: number | null;
  onChange: (id: number | null) => void;
  name: (r: any) => string;
  filter?: Record<string, unknown>;
}) {
  const translate = useTranslate();
  const [q, setQ] = useState('');
  const { data = [] } = useGetList(resource, {
    filter: { ...filter, ...(q ? { q } : {}) },
    pagination: { page: 1, perPage: 25 },
  });
  const selected = data.find((r) => r.id === value) ?? null;
  return (
    <Autocomplete
      options={data}
      value={selected}
      filterOptions={(x) => x}
      getOptionLabel={name}
      isOptionEqualToValue={(a: any, b: any) => a.id === b.id}
      onInputChange={(_, v, reason) => reason === 'input' && setQ(v)}
      onChange={(_, r: any) => onChange(r?.id ?? null)}
      renderInput={(params) => <TextField {...params} label={translate(label)} size="small" />}
      sx={{ width: 220 }}
    />
  );
}

/** The schedule's filters: client, site, job role and staff (those the user may list). */
export function ScheduleFilterBar({
  filters,
  onChange,
  panel,
}: {
  filters: ScheduleFilters;
  onChange: (f: ScheduleFilters) => void;
  panel: 'agency' | 'client';
}) {
  const { canAccess: roles } = useCanAccess({ resource: 'job_roles', action: 'list' });
  const set = (k: keyof ScheduleFilters) => (id: number | null) =>
    onChange({ ...filters, [k]: id, ...(k === 'client_id' ? { site_id: null } : {}) });
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mb: 1 }} role="group" aria-label="Filters">
      {panel === 'agency' && (
        <RecordFilter
          resource="clients"
          label="app.schedule.filters.client"
          value={filters.client_id}
          onChange={set('client_id')}
          name={(r) => r.name}
        />
      )}
      <RecordFilter
        resource="sites"
        label="app.schedule.filters.site"
        value={filters.site_id}
        onChange={set('site_id')}
        name={(r) => r.name}
        filter={filters.client_id ? { client_id: filters.client_id } : {}}
      />
      {roles && (
        <RecordFilter
          resource="job_roles"
          label="app.schedule.filters.job_role"
          value={filters.job_role_id}
          onChange={set('job_role_id')}
          name={(r) => r.name}
        />
      )}
      {panel === 'agency' && (
        <RecordFilter
          resource="candidates"
          label="app.schedule.filters.staff"
          value={filters.candidate_id}
          onChange={set('candidate_id')}
          name={(r) => `${r.first_name} ${r.last_name}`}
        />
      )}
    </Box>
  );
}

/** A shift opened from the schedule: what it is, and Open, Assign or Cancel. */
export function ShiftDialog({
  shift,
  panel,
  onClose,
  onChanged,
}: {
  shift: ScheduledShift;
  panel: 'agency' | 'client';
  onClose: () => void;
  onChanged: () => void;
}) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const tz = useAgencyTimeZone();
  const titleId = useId();
  const [step, setStep] = useState<'details' | 'assign' | 'cancel'>('details');
  const state = stateOf(shift);
  const { canAccess: canCancel } = useCanAccess({ resource: 'shifts', action: 'cancel' });
  const { canAccess: canAssign } = useCanAccess({ resource: 'shifts', action: 'assign' });
  if (step === 'assign') return <AssignDialog shift={shift} onClose={onClose} onAssigned={onChanged} />;
  if (step === 'cancel') return <CancelDialog shift={shift} onClose={onClose} onCancelled={onChanged} />;
  const row = (label: string, value: React.ReactNode) => (
    <>
      <Typography component="dt" variant="body2" color="text.secondary">
        {translate(label)}
      </Typography>
      <Typography component="dd" sx={{ m: 0 }}>
        {value || '—'}
      </Typography>
    </>
  );
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{shiftWhen(shift.start_at, shift.end_at, tz)}</DialogTitle>
      <DialogContent>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}>
          {row('app.schedule.fields.status', translate(`app.schedule.states.${state}`))}
          {panel === 'agency' && row('app.schedule.fields.client', shift.client_name)}
          {row('app.schedule.fields.site', shift.site_name)}
          {row('app.schedule.fields.job_role', shift.job_role_name)}
          {row('app.schedule.fields.staff', shift.candidate_name)}
          {row('app.schedule.fields.charge', shift.charge == null ? null : money(shift.charge))}
          {shift.pay != null && row('app.schedule.fields.pay', money(shift.pay))}
          {shift.margin != null && row('app.schedule.fields.margin', money(shift.margin))}
          {shift.notes && row('app.schedule.fields.notes', shift.notes)}
        </Box>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap' }}>
        {panel === 'agency' && (
          <MuiButton onClick={() => navigate(`/shifts/${shift.id}/show`)}>{translate('app.schedule.open')}</MuiButton>
        )}
        {panel === 'agency' && canAssign && state === 'open' && (
          <MuiButton onClick={() => setStep('assign')}>{translate('app.shifts.assign.button')}</MuiButton>
        )}
        {canCancel && movable(shift) && (
          <MuiButton color="error" onClick={() => setStep('cancel')}>
            {translate('app.shifts.cancel.button')}
          </MuiButton>
        )}
        <MuiButton onClick={onClose}>{translate('ra.action.close')}</MuiButton>
      </DialogActions>
    </Dialog>
  );
}
