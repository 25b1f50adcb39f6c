import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Box, Button, Card, CircularProgress, MenuItem, Pagination, Stack, TextField, Typography } from '@mui/material';
import { Confirm, Title, useDataProvider, useGetList, useNotify, useTranslate } from 'react-admin';
import { Link } from 'react-router';
import { useAddressState } from '../../engine/react/addressState';
import { api } from '../../providers/http';
import { nextState, previousState, type AvailabilityState } from '../../../core/domain/availability/availability';
import { addDaysToDate, formatDisplayDate, isPlainDate } from '../../../core/domain/time/agencyTime';

interface Day {
  id: number;
  status: AvailabilityState;
  version: number;
}
interface StaffWeek {
  id: number;
  first_name: string;
  last_name: string;
  job_role_id: number | null;
  days: Record<string, Day | null>;
}
interface WeekAnswer {
  data: StaffWeek[];
  total_count: number;
  total_pages: number;
  current_page: number;
  week_start: string;
  dates: string[];
}
type SaveState = { state: 'saving' } | { state: 'saved' } | { state: 'failed'; message: string };

const PER_PAGE = 25;
// Each state has its colour and always its text: colour alone never carries the meaning.
const COLOURS: Record<AvailabilityState | 'none', { bg: string; fg: string }> = {
  none: { bg: 'transparent', fg: 'text.secondary' },
  available: { bg: '#d7f0dd', fg: '#1b5e20' },
  day: { bg: '#d6e9fb', fg: '#0d47a1' },
  night: { bg: '#dcd6f7', fg: '#311b92' },
  long_day: { bg: '#ffe6c7', fg: '#8a4b00' },
  unavailable: { bg: '#eceff1', fg: '#37474f' },
};
/** The grid's staff filter: which staff members are listed. */
const STAFF_FILTERS: Record<string, Record<string, string>> = {
  all: {},
  active: { status: 'approved', activated: 'true' },
  inactive: { status: 'approved', activated: 'false' },
  pending: { status: 'pending' },
  rejected: { status: 'rejected' },
};
const key = (staffId: number, date: string) => `${staffId}:${date}`;
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/**
 * The availability week grid (/staff/availability): one row per staff member, Monday first. A day is changed in
 * place by click or keyboard (an ARIA grid with one tab stop: arrows move, Enter or Space steps through the
 * states, Shift steps back, Delete clears). Each change is saved at once through the engine's availability
 * routes; a day's saves run one after another, so quick presses end in the last state chosen.
 */
export function AvailabilityGrid() {
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  // What the grid shows lives in the address (?week=yyyy-MM-dd&q=…&job_role_id=…&staff=…&page=…): a reload, a
  // bookmark and Back show the same week, search and filters. Changes replace the entry (no history per key).
  const [params, update] = useAddressState();
  const asked = params.get('week');
  const weekStart = isPlainDate(asked) ? asked : null; // null: this week, as the server's agency time says
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '', 10) || 1);
  const jobRole = params.get('job_role_id') ?? '';
  const staffFilter = Object.hasOwn(STAFF_FILTERS, params.get('staff') ?? '') ? params.get('staff')! : 'all';
  const q = (params.get('q') ?? '').trim();
  // The box follows the typing at once; the address (and the fetch) after a pause.
  const [search, setSearch] = useState(q);
  const setWeekStart = (week: string | null) => update({ week, page: null });
  const setPage = (p: number) => update({ page: p > 1 ? p : null });
  const [week, setWeek] = useState<WeekAnswer | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [shown, setShown] = useState<Record<string, AvailabilityState | null>>({});
  const [saves, setSaves] = useState<Record<string, SaveState>>({});
  const [focus, setFocus] = useState({ row: 0, col: 0 });
  const [confirmCopy, setConfirmCopy] = useState(false);
  // What the server holds for each day (id, version), and the state last chosen: the saves reconcile the two.
  const stored = useRef(new Map<string, Day | null>());
  const wanted = useRef(new Map<string, AvailabilityState | null>());
  const queues = useRef(new Map<string, Promise<void>>());
  const cells = useRef(new Map<string, HTMLElement>());
  const { data: roles } = useGetList('job_roles', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'name', order: 'ASC' },
  });

  useEffect(() => {
    const typed = search.trim();
    if (typed === q) return;
    const t = setTimeout(() => update({ q: typed, page: null }), 300);
    return () => clearTimeout(t);
  }, [search, q, update]);

  useEffect(() => {
    const controller = new AbortController();
    const params = new URLSearchParams({
      page: String(page),
      per_page: String(PER_PAGE),
      ...STAFF_FILTERS[staffFilter],
    });
    if (weekStart) params.set('week_start', weekStart);
    if (jobRole) params.set('job_role_id', jobRole);
    if (q) params.set('q', q);
    setLoadError(null);
    api<WeekAnswer>(`/staff_availability?${params}`, { signal: controller.signal })
      .then((answer) => {
        stored.current.clear();
        wanted.current.clear();
        const next: Record<string, AvailabilityState | null> = {};
        for (const s of answer.data) {
          for (const d of answer.dates) {
            stored.current.set(key(s.id, d), s.days[d]);
            next[key(s.id, d)] = s.days[d]?.status ?? null;
          }
        }
        setShown(next);
        setSaves({});
        setWeek(answer);
        setFocus((f) => ({ row: Math.min(f.row, Math.max(answer.data.length - 1, 0)), col: f.col }));
      })
      .catch((e) => {
        if (!controller.signal.aborted) setLoadError(e?.message ?? translate('app.availability.load_failed'));
      });
    return () => controller.abort();
  }, [weekStart, page, jobRole, staffFilter, q, translate]);

  /** Brings the server to the state last chosen for the day (one call at most), then reports how it went. */
  const sync = useCallback(
    async (staffId: number, date: string) => {
      const k = key(staffId, date);
      const want = wanted.current.get(k) ?? null;
      const have = stored.current.get(k) ?? null;
      if ((have?.status ?? null) === want) {
        setSaves((s) => ({ ...s, [k]: { state: 'saved' } }));
        return;
      }
      setSaves((s) => ({ ...s, [k]: { state: 'saving' } }));
      try {
        let now: Day | null;
        if (want === null) {
          await dataProvider.delete('availability', { id: have!.id, previousData: { id: have!.id } });
          now = null;
        } else if (have === null) {
          now = (await dataProvider.create('availability', { data: { candidate_id: staffId, date, status: want } }))
            .data as Day;
        } else {
          now = (
            await dataProvider.update('availability', {
              id: have.id,
              data: { status: want, version: have.version },
              previousData: { id: have.id },
            })
          ).data as Day;
        }
        stored.current.set(k, now && { id: now.id, status: now.status, version: now.version });
        setSaves((s) => ({ ...s, [k]: { state: 'saved' } }));
      } catch (e) {
        // What is shown goes back to what is stored, with the server's reason.
        const message = (e as Error)?.message || translate('app.availability.save_failed');
        wanted.current.set(k, have?.status ?? null);
        setShown((s) => ({ ...s, [k]: have?.status ?? null }));
        setSaves((s) => ({ ...s, [k]: { state: 'failed', message } }));
      }
    },
    [dataProvider, translate],
  );

  const choose = (staffId: number, date: string, state: AvailabilityState | null) => {
    const k = key(staffId, date);
    wanted.current.set(k, state);
    setShown((s) => ({ ...s, [k]: state }));
    const previous = queues.current.get(k) ?? Promise.resolve();
    queues.current.set(
      k,
      previous.then(() => sync(staffId, date)),
    );
  };
  const current = (staffId: number, date: string) => (shown[key(staffId, date)] ?? null) as AvailabilityState | null;

  const moveTo = (row: number, col: number) => {
    if (!week || week.data.length === 0) return;
    const r = Math.max(0, Math.min(row, week.data.length - 1));
    const c = Math.max(0, Math.min(col, 6));
    setFocus({ row: r, col: c });
    cells.current.get(key(week.data[r].id, week.dates[c]))?.focus();
  };

  const onKeyDown = (e: KeyboardEvent, row: number, col: number, staffId: number, date: string) => {
    const moves: Record<string, [number, number]> = {
      ArrowUp: [row - 1, col],
      ArrowDown: [row + 1, col],
      ArrowLeft: [row, col - 1],
      ArrowRight: [row, col + 1],
      Home: [row, 0],
      End: [row, 6],
      PageUp: [0, col],
      PageDown: [(week?.data.length ?? 1) - 1, col],
    };
    if (moves[e.key]) {
      e.preventDefault();
      moveTo(...moves[e.key]);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      const now = current(staffId, date);
      choose(staffId, date, e.shiftKey ? previousState(now) : nextState(now));
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      if (current(staffId, date) !== null) choose(staffId, date, null);
    }
  };

  const copyWeek = async () => {
    setConfirmCopy(false);
    if (!week) return;
    try {
      const r = await api<{ copied: number }>('/staff_availability/copy_week', {
        method: 'POST',
        json: { week_start: week.week_start },
      });
      if (r.copied === 0) notify('app.availability.nothing_to_copy', { type: 'info' });
      else
        notify('app.availability.copied', {
          type: 'success',
          messageArgs: { smart_count: r.copied, week: formatDisplayDate(addDaysToDate(week.week_start, 7)) },
        });
    } catch (e) {
      notify((e as Error)?.message || 'app.availability.save_failed', { type: 'error' });
    }
  };

  const failures = Object.values(saves).filter(
    (s): s is Extract<SaveState, { state: 'failed' }> => s.state === 'failed',
  );
  const saving = Object.values(saves).some((s) => s.state === 'saving');
  const dates = week?.dates ?? [];
  const stateLabel = (s: AvailabilityState | null) => translate(`app.availability.states.${s ?? 'none'}`);

  return (
    <Box sx={{ mt: 1 }}>
      <Title title="app.screens.staff_availability" />
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        useFlexGap
        sx={{ mb: 2, flexWrap: 'wrap', alignItems: { md: 'center' } }}
      >
        <TextField
          select
          size="small"
          label={translate('app.availability.job_role')}
          value={jobRole}
          onChange={(e) => update({ job_role_id: e.target.value, page: null })}
          sx={{ minWidth: 200 }}
        >
          <MenuItem value="">{translate('app.availability.all_roles')}</MenuItem>
          {(roles ?? []).map((r) => (
            <MenuItem key={r.id} value={String(r.id)}>
              {r.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={translate('app.availability.staff_filter')}
          value={staffFilter}
          onChange={(e) => update({ staff: e.target.value === 'all' ? null : e.target.value, page: null })}
          sx={{ minWidth: 180 }}
        >
          {Object.keys(STAFF_FILTERS).map((f) => (
            <MenuItem key={f} value={f}>
              {translate(`app.availability.filters.${f}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          type="search"
          label={translate('app.availability.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          slotProps={{ htmlInput: { maxLength: 200 } }}
        />
        {/* One line, never squeezed word by word beside the filters: the row wraps it onto a line of its own
            instead. */}
        <Button
          variant="outlined"
          onClick={() => setConfirmCopy(true)}
          disabled={!week || week.data.length === 0}
          sx={{ whiteSpace: 'nowrap', flexShrink: 0, ml: { md: 'auto' } }}
        >
          {translate('app.availability.copy_week')}
        </Button>
      </Stack>
      <Stack direction="row" spacing={1} sx={{ mb: 1, alignItems: 'center' }}>
        <Button onClick={() => week && setWeekStart(addDaysToDate(week.week_start, -7))} disabled={!week}>
          {translate('app.availability.previous_week')}
        </Button>
        <Button onClick={() => setWeekStart(null)}>{translate('app.availability.this_week')}</Button>
        <Button onClick={() => week && setWeekStart(addDaysToDate(week.week_start, 7))} disabled={!week}>
          {translate('app.availability.next_week')}
        </Button>
        {week && (
          <Typography variant="subtitle1" component="h2" sx={{ ml: 2 }}>
            {translate('app.availability.week_of', { date: formatDisplayDate(week.week_start) })}
          </Typography>
        )}
        <Box sx={{ flex: 1 }} />
        <Typography
          role="status"
          aria-live="polite"
          variant="body2"
          color={failures.length ? 'error' : 'text.secondary'}
        >
          {failures.length
            ? translate('app.availability.failed', { message: failures[failures.length - 1].message })
            : saving
              ? translate('app.availability.saving')
              : Object.keys(saves).length
                ? translate('app.availability.saved')
                : ''}
        </Typography>
      </Stack>
      {loadError && (
        <Typography color="error" role="alert">
          {loadError}
        </Typography>
      )}
      {!week && !loadError && <CircularProgress size={24} aria-label={translate('ra.page.loading')} />}
      {week && week.data.length === 0 && <Typography sx={{ p: 2 }}>{translate('app.availability.empty')}</Typography>}
      {week && week.data.length > 0 && (
        <Card sx={{ overflowX: 'auto' }}>
          <Box
            role="grid"
            aria-label={translate('app.availability.grid_label', { date: formatDisplayDate(week.week_start) })}
            aria-rowcount={week.data.length + 1}
            sx={{ display: 'table', width: '100%', borderCollapse: 'collapse' }}
          >
            <Box role="row" sx={{ display: 'table-row' }}>
              <Box role="columnheader" sx={headerSx}>
                {translate('app.availability.staff')}
              </Box>
              {dates.map((d, i) => (
                <Box role="columnheader" key={d} sx={headerSx}>
                  {translate(`app.availability.weekdays.${WEEKDAYS[i]}`)}
                  <br />
                  <Typography variant="caption">{formatDisplayDate(d)}</Typography>
                </Box>
              ))}
            </Box>
            {week.data.map((s, row) => (
              <Box role="row" key={s.id} sx={{ display: 'table-row' }}>
                <Box role="rowheader" sx={{ ...cellSx, fontWeight: 500, whiteSpace: 'nowrap' }}>
                  <Link to={`/staffs/${s.id}`}>{`${s.first_name} ${s.last_name}`}</Link>
                </Box>
                {dates.map((d, col) => {
                  const k = key(s.id, d);
                  const state = current(s.id, d);
                  const save = saves[k];
                  const colour = COLOURS[state ?? 'none'];
                  return (
                    <Box
                      role="gridcell"
                      key={d}
                      ref={(el: HTMLElement | null) => {
                        if (el) cells.current.set(k, el);
                        else cells.current.delete(k);
                      }}
                      tabIndex={focus.row === row && focus.col === col ? 0 : -1}
                      aria-label={`${s.first_name} ${s.last_name}, ${translate(`app.availability.weekdays.${WEEKDAYS[col]}`)} ${formatDisplayDate(d)}: ${stateLabel(state)}${save?.state === 'failed' ? `. ${translate('app.availability.failed', { message: save.message })}` : ''}`}
                      aria-invalid={save?.state === 'failed' || undefined}
                      aria-busy={save?.state === 'saving' || undefined}
                      data-state={state ?? 'none'}
                      data-save={save?.state}
                      onClick={() => {
                        setFocus({ row, col });
                        choose(s.id, d, nextState(state));
                      }}
                      onFocus={() => setFocus({ row, col })}
                      onKeyDown={(e) => onKeyDown(e, row, col, s.id, d)}
                      title={save?.state === 'failed' ? save.message : undefined}
                      sx={{
                        ...cellSx,
                        cursor: 'pointer',
                        textAlign: 'center',
                        bgcolor: colour.bg,
                        color: colour.fg,
                        minWidth: 96,
                        userSelect: 'none',
                        outline: save?.state === 'failed' ? '2px solid' : undefined,
                        outlineColor: 'error.main',
                        '&:focus-visible': { outline: '3px solid', outlineColor: 'primary.main', outlineOffset: -3 },
                      }}
                    >
                      <span>{stateLabel(state)}</span>
                      <Typography
                        component="span"
                        variant="caption"
                        sx={{
                          display: 'block',
                          minHeight: 16,
                          color: save?.state === 'failed' ? 'error.main' : 'text.secondary',
                        }}
                      >
                        {save?.state === 'saving'
                          ? translate('app.availability.saving')
                          : save?.state === 'saved'
                            ? translate('app.availability.saved')
                            : save?.state === 'failed'
                              ? translate('app.availability.not_saved')
                              : ''}
                      </Typography>
                    </Box>
                  );
                })}
              </Box>
            ))}
          </Box>
        </Card>
      )}
      {week && week.total_pages > 1 && (
        <Pagination sx={{ mt: 2 }} count={week.total_pages} page={page} onChange={(_, p) => setPage(p)} />
      )}
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {translate('app.availability.help')}
      </Typography>
      <Confirm
        isOpen={confirmCopy}
        title="app.availability.copy_title"
        content="app.availability.copy_confirm"
        translateOptions={{
          week: week ? formatDisplayDate(week.week_start) : '',
          next: week ? formatDisplayDate(addDaysToDate(week.week_start, 7)) : '',
        }}
        onConfirm={copyWeek}
        onClose={() => setConfirmCopy(false)}
      />
    </Box>
  );
}

const cellSx = {
  display: 'table-cell',
  border: '1px solid',
  borderColor: 'divider',
  px: 1,
  py: 0.75,
  verticalAlign: 'middle',
} as const;
const headerSx = { ...cellSx, fontWeight: 600, textAlign: 'center', bgcolor: 'action.hover' } as const;
