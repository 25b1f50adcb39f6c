import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import {
  Box,
  Button as MuiButton,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { useNotify, useTranslate } from 'react-admin';
import { api } from '../../providers/http';
import {
  addDaysToDate,
  agencyToday,
  formatDisplayDate,
  instantToZoned,
  startOfWeekMonday,
  weekDates,
  zonedDateTimeToInstant,
} from '../../../core/domain/time/agencyTime';
import { shiftInstants } from '../../../core/domain/shifts/times';
import {
  MoveConfirmDialog,
  moveShift,
  movable,
  refusalOf,
  scheduleQuery,
  stateOf,
  type MoveRefusal,
  type MoveTarget,
  type ScheduleFilters,
  type ScheduledShift,
} from './ScheduleParts';
import { STATUS_COLOURS, unwrap } from './shared';

export interface StaffRow {
  /** null: the open shifts, nobody booked yet. */
  candidate_id: number | null;
  name: string;
  /** Shifts by the date they start on the agency's calendar. */
  days: Record<string, ScheduledShift[]>;
}

/** The week's shifts as rows: the open shifts first, then one row per staff member by name; Monday first. */
export function staffRows(shifts: ScheduledShift[], tz: string, openText: string): StaffRow[] {
  const rows = new Map<number | null, StaffRow>();
  rows.set(null, { candidate_id: null, name: openText, days: {} });
  for (const s of shifts) {
    const key = s.candidate_id ?? null;
    const row = rows.get(key) ?? { candidate_id: key, name: s.candidate_name ?? `#${key}`, days: {} };
    rows.set(key, row);
    const date = instantToZoned(new Date(s.start_at), tz).date;
    (row.days[date] ??= []).push(s);
  }
  const [open, ...staff] = [...rows.values()];
  return [open, ...staff.sort((a, b) => a.name.localeCompare(b.name))];
}

/**
 * The same shift on another date (same wall-clock times, so a night stays 20:00–08:00 across a clock change) and,
 * when dropped on another staff member's row, for them.
 */
export function movedTo(s: ScheduledShift, date: string, tz: string): { start: string; end: string } {
  const start = instantToZoned(new Date(s.start_at), tz).time;
  const end = instantToZoned(new Date(s.end_at), tz).time;
  return shiftInstants(date, start, end, tz);
}

const chipTime = (s: ScheduledShift, tz: string) =>
  `${instantToZoned(new Date(s.start_at), tz).time}–${instantToZoned(new Date(s.end_at), tz).time}`;
const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/**
 * The staff week: one row per staff member with shifts this week (or the one filtered on), seven day columns,
 * Monday first, shift chips coloured by state. A chip is dragged to another day or another staff member's row to
 * move it (the same move action and checks as the calendar; a booked shift after the same confirmation); Enter on a
 * chip opens it.
 */
export function StaffWeek({
  tz,
  filters,
  onOpen,
  onRefusal,
  initialDate,
  onWeek,
  reloads = 0,
}: {
  tz: string;
  filters: ScheduleFilters;
  onOpen: (s: ScheduledShift) => void;
  onRefusal: (m: MoveRefusal | null) => void;
  /** A date of the week to show first (default this week). */
  initialDate?: string;
  /** Told the Monday of the week shown, whenever it changes (the schedule keeps it in the address). */
  onWeek?: (monday: string) => void;
  /** Changes when shifts were changed elsewhere (the shift dialog): the week is fetched again. */
  reloads?: number;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [weekStart, setWeekStart] = useState(() => startOfWeekMonday(initialDate ?? agencyToday(tz)));
  const [shifts, setShifts] = useState<ScheduledShift[] | null>(null);
  // A ref, not state: the browser fires dragover right after dragstart, before React would re-render with new state,
  // and a dragover that is not accepted at once makes the drop land nowhere.
  const dragged = useRef<ScheduledShift | null>(null);
  const [version, setVersion] = useState(0);
  // A booked shift's drop waits here for the user to confirm it (the staff member it goes to, when another).
  const [pending, setPending] = useState<{ shift: ScheduledShift; to: MoveTarget; other: string | null } | null>(null);
  const dates = weekDates(weekStart);
  useEffect(() => {
    onWeek?.(weekStart);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- told once per week shown
  }, [weekStart]);
  useEffect(() => {
    const controller = new AbortController();
    const from = zonedDateTimeToInstant(weekStart, '00:00', tz).toISOString();
    const to = zonedDateTimeToInstant(addDaysToDate(weekStart, 7), '00:00', tz).toISOString();
    setShifts(null);
    api(`/schedule?${scheduleQuery(from, to, filters)}`, { signal: controller.signal })
      .then((r) => setShifts(unwrap<ScheduledShift[]>(r)))
      .catch(() => !controller.signal.aborted && setShifts([]));
    return () => controller.abort();
  }, [weekStart, tz, filters, version, reloads]);
  const openText = translate('app.schedule.open_shifts');
  const rows = useMemo(() => (shifts ? staffRows(shifts, tz, openText) : []), [shifts, tz, openText]);

  const move = useCallback(
    async (s: ScheduledShift, to: MoveTarget) => {
      onRefusal(null);
      try {
        await moveShift(s.id, to);
        notify('app.schedule.moved', { type: 'success' });
      } catch (e: any) {
        onRefusal(refusalOf(e, filters, translate('app.schedule.move_failed')));
      }
      setVersion((v) => v + 1);
    },
    [filters, notify, onRefusal, translate],
  );

  const drop = (row: StaffRow, date: string) => {
    const s = dragged.current;
    dragged.current = null;
    if (!s) return;
    const sameRow = (s.candidate_id ?? null) === row.candidate_id;
    const sameDay = instantToZoned(new Date(s.start_at), tz).date === date;
    if (sameRow && sameDay) return;
    // Dropping on the open row would unassign: that is the Unassign action, not a move.
    if (!sameRow && row.candidate_id === null) return onRefusal({ message: translate('app.schedule.no_drop_open') });
    const to: MoveTarget = { ...movedTo(s, date, tz), ...(sameRow ? {} : { candidate_id: row.candidate_id }) };
    if (s.candidate_id) setPending({ shift: s, to, other: sameRow ? null : row.name });
    else void move(s, to);
  };

  const chip = (s: ScheduledShift) => {
    const state = stateOf(s);
    const label = `${translate(`app.schedule.states.${state}`)}: ${chipTime(s, tz)} ${[s.job_role_name, s.site_name].filter(Boolean).join(', ')}`;
    return (
      <Box
        key={s.id}
        role="button"
        tabIndex={0}
        aria-label={label}
        data-shift-id={s.id}
        draggable={movable(s)}
        onDragStart={(e: DragEvent) => {
          e.dataTransfer.setData('text/plain', String(s.id));
          e.dataTransfer.effectAllowed = 'move';
          dragged.current = s;
        }}
        onDragEnd={() => {
          dragged.current = null;
        }}
        onClick={() => onOpen(s)}
        onKeyDown={(e: KeyboardEvent) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            onOpen(s);
          }
        }}
        sx={{
          bgcolor: STATUS_COLOURS[state] ?? STATUS_COLOURS.open,
          color: '#fff',
          borderRadius: 1,
          px: 0.75,
          py: 0.25,
          mb: 0.5,
          fontSize: 12,
          lineHeight: 1.3,
          cursor: movable(s) ? 'grab' : 'pointer',
          '&:focus-visible': { outline: '3px solid #ff9800', outlineOffset: '1px' },
        }}
      >
        <strong>{chipTime(s, tz)}</strong> {[s.job_role_name, s.site_name].filter(Boolean).join(' · ')}
      </Box>
    );
  };

  return (
    <Box data-testid="staff-week">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <MuiButton
          size="small"
          variant="outlined"
          onClick={() => setWeekStart(addDaysToDate(weekStart, -7))}
          aria-label={translate('app.schedule.previous_week')}
        >
          <ChevronLeftIcon />
        </MuiButton>
        <MuiButton size="small" variant="outlined" onClick={() => setWeekStart(startOfWeekMonday(agencyToday(tz)))}>
          {translate('app.schedule.this_week')}
        </MuiButton>
        <MuiButton
          size="small"
          variant="outlined"
          onClick={() => setWeekStart(addDaysToDate(weekStart, 7))}
          aria-label={translate('app.schedule.next_week')}
        >
          <ChevronRightIcon />
        </MuiButton>
        <Typography component="h2" variant="h6" aria-live="polite">
          {translate('app.schedule.week_of', { date: formatDisplayDate(weekStart) })}
        </Typography>
        {!shifts && <CircularProgress size={18} aria-label={translate('app.schedule.loading')} />}
      </Stack>
      <Box sx={{ overflowX: 'auto' }}>
        <Table
          size="small"
          sx={{ tableLayout: 'fixed', minWidth: 900 }}
          aria-label={translate('app.schedule.staff_week')}
        >
          <TableHead>
            <TableRow>
              <TableCell component="th" scope="col" sx={{ width: 160 }}>
                {translate('app.schedule.fields.staff')}
              </TableCell>
              {dates.map((d, i) => (
                <TableCell key={d} component="th" scope="col">
                  {DAY_NAMES[i]} {d.slice(8)}/{d.slice(5, 7)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.candidate_id ?? 'open'} data-staff-row={row.candidate_id ?? 'open'}>
                <TableCell component="th" scope="row" sx={{ fontWeight: 500 }}>
                  {row.name}
                </TableCell>
                {dates.map((d) => (
                  <TableCell
                    key={d}
                    data-date={d}
                    onDragOver={(e) => {
                      if (dragged.current) {
                        e.preventDefault();
                        e.dataTransfer.dropEffect = 'move';
                      }
                    }}
                    onDrop={(e) => {
                      e.preventDefault();
                      drop(row, d);
                    }}
                    sx={{ verticalAlign: 'top', height: 48, p: 0.5 }}
                  >
                    {(row.days[d] ?? []).map(chip)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      {shifts && shifts.length === 0 && <Typography sx={{ mt: 1 }}>{translate('app.schedule.empty_week')}</Typography>}
      {pending && (
        <MoveConfirmDialog
          shift={pending.shift}
          to={pending.to}
          other={pending.other}
          tz={tz}
          onKeep={() => setPending(null)}
          onMove={() => (void move(pending.shift, pending.to), setPending(null))}
        />
      )}
    </Box>
  );
}
