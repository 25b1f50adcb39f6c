import { useCallback, useEffect, useId, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import {
  Alert,
  Box,
  Button,
  Card,
  Checkbox,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  LinearProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  type ChipProps,
} from '@mui/material';
import { Title, useNotify, useTranslate } from 'react-admin';
import { DatePickerProvider } from '../../engine/react/DatePickerInput';
import { PlainDatePicker } from '../../engine/react/PlainDatePicker';
import { useGeneration } from './generation';
import { ApiFailure, request, requestAll } from '../../providers/request';
import { formatPounds } from '../../../core/engine/money';
import { addDaysToDate, agencyToday, isPlainDate, startOfWeekMonday } from '../../../core/domain/time/agencyTime';
import { useAgency } from '../../layout/useShellData';
import { DEFAULT_ZONE, hoursText } from './format';
import type { Schedule } from '../../../core/contracts/shifts';
import type { GenerateAnswer } from '../../../core/contracts/timesheets';
import { workedInPeriod } from '../../../core/domain/timesheets/rules';

/** A timesheet as the engine lists it to an agency user. */
export interface TimesheetRow {
  id: number;
  number: string;
  client_id: number;
  site_id: number | null;
  kind: string;
  period_start: string;
  period_end: string;
  status: string;
  line_count: number;
  payable_lines: number;
  hours: number | null;
  charge: number;
  pay: number;
  margin: number;
  /** The week's first timesheet, when this one is its supplement (a late line after it was sent: issue 29.10). */
  supplement_of?: number | null;
}

export const STATUS_COLOUR: Record<string, ChipProps['color']> = {
  draft: 'default',
  submitted: 'info',
  signed: 'success',
  verified: 'success',
  disputed: 'warning',
  amended: 'secondary',
  locked: 'default',
};

export function TimesheetState({ status }: { status: string }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={STATUS_COLOUR[status] ?? 'default'}
      // A timesheet verified in full says so (a line's "verified" reads "Verified by the agency").
      label={translate(`app.timesheets.status.${status === 'verified' ? 'fully_verified' : status}`)}
    />
  );
}

/** Rows of the week: every client and site with worked shifts, and every timesheet of the week, side by side. */
interface WeekRow {
  key: string;
  client: string;
  site: string | null;
  shifts: number;
  timesheet: TimesheetRow | null;
  /** The number of the week's first timesheet, when this row's is its supplement. */
  supplementTo?: string | null;
}

const money = (pence: number | null | undefined) => formatPounds(Number(pence ?? 0));

/**
 * /timesheet/weekly: the week (Monday first, chosen with the product's date picker or a week back and forward) and
 * every client and site with work in it, with its timesheet's state and totals. Generate builds the week's
 * timesheets from the worked shifts in one action (a large run reports its progress); Submit sends the drafts.
 */
export function WeeklyTimesheets() {
  const translate = useTranslate();
  const notify = useNotify();
  const [params, setParams] = useSearchParams();
  const asked = params.get('week');
  const zone = useAgency().data?.timeZone ?? DEFAULT_ZONE;
  const week = startOfWeekMonday(isPlainDate(asked) ? asked! : agencyToday(zone));
  const setWeek = (date: string | null) => date && setParams({ week: startOfWeekMonday(date) }, { replace: true });
  const [rows, setRows] = useState<WeekRow[] | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState<'generate' | 'submit' | null>(null);

  const load = useCallback(async () => {
    setError('');
    try {
      const sunday = addDaysToDate(week, 6);
      const [schedule, sheets] = await Promise.all([
        // The schedule's `to` is exclusive: the next Monday, so Sunday's shifts count too.
        request<Schedule>(`/schedule?from=${week}&to=${addDaysToDate(week, 7)}`),
        requestAll<TimesheetRow>(
          `/timesheets?kind=weekly&period_start_gte=${week}&period_start_lte=${week}&sort=client_id&order=ASC`,
        ),
      ]);
      const names = new Map<string, string>();
      for (const [resource, list] of Object.entries(sheets.references ?? {}))
        for (const r of list) names.set(`${resource}:${r.id}`, r.name ?? '');
      const now = Date.now();
      const out = new Map<string, WeekRow>();
      const clientOf = new Map<number, string>();
      for (const s of schedule.data) {
        // Worked in the week, as generation takes them (a shift of the Sunday before that ends on Monday is not).
        if (!workedInPeriod(s, week, sunday, zone, now)) continue;
        clientOf.set(s.client_id, s.client_name);
        const key = `${s.client_id}:${s.site_id}`;
        const row = out.get(key) ?? { key, client: s.client_name, site: s.site_name, shifts: 0, timesheet: null };
        row.shifts += 1;
        out.set(key, row);
      }
      for (const t of sheets.data) {
        const client = names.get(`clients:${t.client_id}`) ?? clientOf.get(t.client_id) ?? '';
        const site = t.site_id ? (names.get(`sites:${t.site_id}`) ?? null) : null;
        // A timesheet per site takes its site's row; one per client takes the client's rows, shown once.
        const mine = [...out.values()].filter(
          (r) => r.key.startsWith(`${t.client_id}:`) && (t.site_id == null || r.key === `${t.client_id}:${t.site_id}`),
        );
        const shifts = mine.reduce((n, r) => n + r.shifts, 0);
        for (const r of mine) out.delete(r.key);
        const first = t.supplement_of ? sheets.data.find((x) => x.id === t.supplement_of) : null;
        const supplementTo = t.supplement_of
          ? (first?.number ?? names.get(`timesheets:${t.supplement_of}`) ?? null)
          : null;
        out.set(`ts${t.id}`, { key: `ts${t.id}`, client, site, shifts, timesheet: t, supplementTo });
      }
      setRows(
        [...out.values()].sort(
          (a, b) => a.client.localeCompare(b.client) || (a.site ?? '').localeCompare(b.site ?? ''),
        ),
      );
    } catch (e) {
      setError(e instanceof ApiFailure ? e.message : translate('app.timesheets.agency.load_failed'));
    }
  }, [week, zone, translate]);
  useEffect(() => {
    setRows(null);
    void load();
  }, [load]);

  const generation = useGeneration(() => void load());
  /** The confirmation: what the week's generation would take, per client, and the clients chosen. */
  const [confirming, setConfirming] = useState<{ clients: PreviewClient[]; chosen: Set<number> } | null>(null);
  const askToGenerate = async () => {
    setBusy('generate');
    try {
      const r = await request<GenerateAnswer>('/timesheets/actions/generate', {
        method: 'POST',
        json: { week_start: week, preview: true },
      });
      const clients = r.data.preview ?? [];
      if (clients.length === 0) notify(translate('app.timesheets.agency.nothing_to_generate'), { type: 'info' });
      else setConfirming({ clients, chosen: new Set(clients.map((c) => c.client_id)) });
    } catch (e) {
      notify(e instanceof Error ? e.message : String(e), { type: 'error' });
    } finally {
      setBusy(null);
    }
  };
  const generate = async (clientIds: number[], all: boolean) => {
    setConfirming(null);
    setBusy('generate');
    try {
      await generation.generate(all ? { week_start: week } : { week_start: week, client_ids: clientIds });
      await load();
    } catch (e) {
      notify(e instanceof Error ? e.message : String(e), { type: 'error' });
    } finally {
      setBusy(null);
    }
  };
  const drafts = (rows ?? []).filter((r) => r.timesheet && ['draft', 'amended'].includes(r.timesheet.status));
  const submitDrafts = async () => {
    setBusy('submit');
    try {
      await request('/timesheets/actions/submit', {
        method: 'POST',
        json: { ids: drafts.map((r) => r.timesheet!.id) },
      });
      notify(translate('app.timesheets.agency.submitted', { smart_count: drafts.length }), { type: 'info' });
      await load();
    } catch (e) {
      notify(e instanceof Error ? e.message : String(e), { type: 'error' });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Box sx={{ mt: 1 }}>
      <Title title="app.screens.timesheet_weekly" />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} useFlexGap sx={{ mb: 2, flexWrap: 'wrap' }}>
        <DatePickerProvider>
          <PlainDatePicker
            label={translate('app.timesheets.agency.week')}
            value={week}
            onChange={setWeek}
            helperText={translate('app.timesheets.agency.week_help')}
          />
        </DatePickerProvider>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <Button onClick={() => setWeek(addDaysToDate(week, -7))}>
            {translate('app.timesheets.agency.previous')}
          </Button>
          <Button onClick={() => setWeek(addDaysToDate(week, 7))}>{translate('app.timesheets.agency.next')}</Button>
        </Stack>
        <Box sx={{ flex: 1 }} />
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', flexWrap: 'wrap' }} useFlexGap>
          <Button variant="contained" onClick={() => void askToGenerate()} disabled={busy !== null}>
            {translate('app.timesheets.agency.generate')}
          </Button>
          <Button
            variant="outlined"
            onClick={() => void submitDrafts()}
            disabled={busy !== null || drafts.length === 0}
          >
            {drafts.length
              ? translate('app.timesheets.agency.submit_drafts', { smart_count: drafts.length })
              : translate('app.timesheets.agency.no_drafts')}
          </Button>
        </Stack>
      </Stack>
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        {translate('app.timesheets.agency.week_of', { from: week, to: addDaysToDate(week, 6) })}
      </Typography>
      <Box aria-live="polite" sx={{ mb: 1 }}>
        {busy === 'generate' && <LinearProgress aria-label={translate('app.timesheets.agency.generating')} />}
        {generation.progress}
      </Box>
      {error && (
        <Alert
          severity="error"
          action={<Button onClick={() => void load()}>{translate('app.timesheets.agency.retry')}</Button>}
        >
          {error}
        </Alert>
      )}
      {!rows && !error && <CircularProgress aria-label={translate('ra.page.loading')} />}
      {rows && rows.length === 0 && <Typography>{translate('app.timesheets.agency.empty_week')}</Typography>}
      {rows && rows.length > 0 && <WeekTable rows={rows} />}
      {confirming && (
        <GenerateDialog
          clients={confirming.clients}
          chosen={confirming.chosen}
          onChange={(chosen) => setConfirming({ ...confirming, chosen })}
          onCancel={() => setConfirming(null)}
          onConfirm={() => void generate([...confirming.chosen], confirming.chosen.size === confirming.clients.length)}
        />
      )}
    </Box>
  );
}

type PreviewClient = NonNullable<GenerateAnswer['data']['preview']>[number];

/** Asks before generating the week: how many worked shifts it takes, for which clients (all chosen at first). */
function GenerateDialog({
  clients,
  chosen,
  onChange,
  onCancel,
  onConfirm,
}: {
  clients: PreviewClient[];
  chosen: Set<number>;
  onChange: (chosen: Set<number>) => void;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const translate = useTranslate();
  const titleId = useId();
  const shifts = clients.filter((c) => chosen.has(c.client_id)).reduce((n, c) => n + c.shifts, 0);
  const toggle = (id: number) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onChange(next);
  };
  return (
    <Dialog open onClose={onCancel} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{translate('app.timesheets.agency.generate')}</DialogTitle>
      <DialogContent>
        <Typography sx={{ mb: 1 }}>
          {translate('app.timesheets.agency.generate_question', {
            smart_count: clients.reduce((n, c) => n + c.shifts, 0),
          })}
        </Typography>
        <FormGroup>
          {clients.map((c) => (
            <FormControlLabel
              key={c.client_id}
              control={<Checkbox checked={chosen.has(c.client_id)} onChange={() => toggle(c.client_id)} />}
              label={translate('app.timesheets.agency.generate_client', { name: c.name, smart_count: c.shifts })}
            />
          ))}
        </FormGroup>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{translate('ra.action.cancel')}</Button>
        <Button variant="contained" onClick={onConfirm} disabled={shifts === 0}>
          {translate('app.timesheets.agency.generate_confirm', { smart_count: shifts })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function WeekTable({ rows }: { rows: WeekRow[] }) {
  const translate = useTranslate();
  const h = (k: string) => translate(`app.timesheets.agency.${k}`);
  return (
    <Card sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={h('table')}>
        <TableHead>
          <TableRow>
            <TableCell>{h('client')}</TableCell>
            <TableCell>{h('site')}</TableCell>
            <TableCell align="right">{h('shifts')}</TableCell>
            <TableCell>{h('timesheet')}</TableCell>
            <TableCell>{h('state')}</TableCell>
            <TableCell align="right">{h('lines')}</TableCell>
            <TableCell align="right">{h('hours')}</TableCell>
            <TableCell align="right">{h('charge')}</TableCell>
            <TableCell align="right">{h('pay')}</TableCell>
            <TableCell align="right">{h('margin')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.key}>
              <TableCell>{r.client}</TableCell>
              <TableCell>{r.site ?? (r.timesheet ? h('all_sites') : '')}</TableCell>
              <TableCell align="right">{r.shifts}</TableCell>
              <TableCell>
                {r.timesheet ? (
                  <RouterLink to={`/timesheets/${r.timesheet.id}/show`}>{r.timesheet.number}</RouterLink>
                ) : (
                  h('not_generated')
                )}
                {r.supplementTo && (
                  <Typography variant="caption" component="span" sx={{ display: 'block' }}>
                    {translate('app.timesheets.agency.supplement_to', { number: r.supplementTo })}
                  </Typography>
                )}
              </TableCell>
              <TableCell>{r.timesheet && <TimesheetState status={r.timesheet.status} />}</TableCell>
              <TableCell align="right">
                {r.timesheet ? `${r.timesheet.payable_lines} / ${r.timesheet.line_count}` : ''}
              </TableCell>
              <TableCell align="right">{r.timesheet ? hoursText(r.timesheet.hours) : ''}</TableCell>
              <TableCell align="right">{r.timesheet ? money(r.timesheet.charge) : ''}</TableCell>
              <TableCell align="right">{r.timesheet ? money(r.timesheet.pay) : ''}</TableCell>
              <TableCell align="right">{r.timesheet ? money(r.timesheet.margin) : ''}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}
