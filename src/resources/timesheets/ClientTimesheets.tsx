import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  Alert,
  Box,
  Button as MuiButton,
  Card,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { Title, useCanAccess, useTranslate } from 'react-admin';
import { ApiFailure, request, requestAll } from '../../providers/request';
import { formatPounds } from '../../../core/engine/money';
import { TimesheetReview, type ReviewLine } from './TimesheetReview';
import { SignatureImage, useZone } from './TimesheetShow';
import { DocumentButtons } from '../../engine/react/download';
import { timesheets } from '../../../core/resources/timesheets/resource';
import { TimesheetState, type TimesheetRow } from './AgencyTimesheets';
import { hoursText, instantText } from './format';
import { PhoneApprovers } from './PhoneApprovers';

type Refs = Record<string, { id: number; name?: string }[]>;

interface LineRow {
  id: number;
  work_date: string;
  candidate_name: string | null;
  site_id: number;
  job_role_id: number;
  scheduled_start: string;
  scheduled_end: string;
  actual_start: string | null;
  actual_end: string | null;
  break_minutes: number | null;
  hours: number | null;
  charge: number | null;
  status: ReviewLine['status'];
  dispute_reason: string | null;
}

interface SignatureRow {
  id: number;
  signer_name: string;
  signature: string | null;
  signed_at: string;
  signed_via: string;
  line_count: number;
}

const nameIn = (refs: Refs | undefined, resource: string, id: number | null) =>
  (refs?.[resource] ?? []).find((r) => r.id === id)?.name ?? null;

/** One timesheet for the client: its lines to review, and approving or disputing them; its signatures. */
function ClientTimesheet({ id, onBack }: { id: number; onBack: () => void }) {
  const translate = useTranslate();
  const zone = useZone();
  const { canAccess: canApprove } = useCanAccess({ resource: 'timesheets', action: 'approve' });
  const [state, setState] = useState<{
    timesheet: TimesheetRow & { site_id: number | null };
    lines: ReviewLine[];
    signatures: SignatureRow[];
  } | null>(null);
  const [error, setError] = useState('');
  const [done, setDone] = useState('');
  const load = useCallback(async () => {
    try {
      const [ts, lines, signatures] = await Promise.all([
        request<{ data: TimesheetRow }>(`/timesheets/${id}`),
        requestAll<LineRow>(`/timesheet_lines?timesheet_id=${id}&sort=scheduled_start&order=ASC`),
        requestAll<SignatureRow>(`/timesheet_signatures?timesheet_id=${id}`),
      ]);
      setState({
        timesheet: ts.data,
        lines: lines.data.map((l) => ({
          ...l,
          staff: l.candidate_name,
          role: nameIn(lines.references, 'job_roles', l.job_role_id),
          site: nameIn(lines.references, 'sites', l.site_id),
        })),
        signatures: signatures.data,
      });
    } catch (e) {
      setError(e instanceof ApiFailure ? e.message : String(e));
    }
  }, [id]);
  useEffect(() => {
    void load();
  }, [load]);
  if (error) return <Alert severity="error">{error}</Alert>;
  if (!state) return <CircularProgress aria-label={translate('ra.page.loading')} />;
  const ts = state.timesheet;
  return (
    <Box>
      <MuiButton onClick={onBack} sx={{ mb: 1 }}>
        {translate('app.timesheets.client.back')}
      </MuiButton>
      <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <Typography component="h2" variant="h6">
          {`${ts.number} · ${ts.period_start} – ${ts.period_end}`}
        </Typography>
        <TimesheetState status={ts.status} />
        <Typography>{`${hoursText(ts.hours)} h · ${formatPounds(Number(ts.charge ?? 0))}`}</Typography>
        <DocumentButtons decl={timesheets} id={ts.id} />
      </Stack>
      {done && (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {done}
        </Alert>
      )}
      {ts.status === 'submitted' && canApprove ? (
        <TimesheetReview
          lines={state.lines}
          mode="panel"
          timeZone={zone}
          onApprove={async (a) => {
            await request(`/timesheets/${id}/actions/approve`, { method: 'POST', json: a });
            setDone(
              translate(a.line_ids.length ? 'app.timesheets.review.approved_some' : 'app.timesheets.review.approved'),
            );
            await load();
          }}
          onDispute={async (d) => {
            await request(`/timesheets/${id}/actions/dispute`, { method: 'POST', json: d });
            setDone(translate('app.timesheets.review.disputed'));
            await load();
          }}
        />
      ) : (
        <TimesheetReview lines={state.lines} mode="panel" timeZone={zone} onApprove={async () => undefined} readOnly />
      )}
      <Typography component="h3" variant="subtitle1" sx={{ mt: 3, mb: 1 }}>
        {translate('app.timesheets.client.signatures')}
      </Typography>
      {state.signatures.length === 0 ? (
        <Typography color="text.secondary">{translate('app.timesheets.client.no_signatures')}</Typography>
      ) : (
        <Stack spacing={1}>
          {state.signatures.map((s) => (
            <Stack key={s.id} direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <SignatureImage src={s.signature} signer={s.signer_name} />
              <Typography variant="body2">
                {translate('app.timesheets.client.signed_by', {
                  name: s.signer_name,
                  when: instantText(s.signed_at, zone),
                  how: translate(`app.timesheets.signed_via.${s.signed_via}`),
                  smart_count: s.line_count,
                })}
              </Typography>
            </Stack>
          ))}
        </Stack>
      )}
    </Box>
  );
}

/**
 * The client's timesheets: a table on a wide screen; on a phone one card each, as the review page shows its lines,
 * so the hours, the charge and "Review and sign" are on the screen without a sideways scroll.
 */
function TimesheetTable({
  rows,
  onOpen,
  label,
}: {
  rows: TimesheetRow[];
  onOpen: (id: number) => void;
  label: string;
}) {
  const translate = useTranslate();
  const phone = useMediaQuery(useTheme().breakpoints.down('md'));
  const h = (k: string) => translate(`app.timesheets.agency.${k}`);
  const open = (t: TimesheetRow) => (
    <MuiButton
      size="small"
      variant={t.status === 'submitted' ? 'contained' : 'text'}
      onClick={() => onOpen(t.id)}
      aria-label={translate('app.timesheets.client.open_one', {
        action: translate(t.status === 'submitted' ? 'app.timesheets.client.review' : 'app.timesheets.client.open'),
        number: t.number,
      })}
    >
      {translate(t.status === 'submitted' ? 'app.timesheets.client.review' : 'app.timesheets.client.open')}
    </MuiButton>
  );
  // Lines signed or verified of all lines: what is done, never the bare count.
  const done = (t: TimesheetRow) => `${t.payable_lines} / ${t.line_count}`;
  if (phone)
    return (
      <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label={label}>
        {rows.map((t) => (
          <Card component="li" key={t.id} variant="outlined" sx={{ p: 1.5 }}>
            <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
              <Typography sx={{ fontWeight: 'bold', flex: 1 }}>{t.number}</Typography>
              <TimesheetState status={t.status} />
            </Stack>
            <Typography variant="body2">{`${t.period_start} – ${t.period_end}`}</Typography>
            <Typography variant="body2">
              {`${h('lines')} ${done(t)} · ${h('hours')} ${hoursText(t.hours)} · ${h('charge')} ${formatPounds(Number(t.charge ?? 0))}`}
            </Typography>
            <Box sx={{ mt: 1 }}>{open(t)}</Box>
          </Card>
        ))}
      </Stack>
    );
  return (
    <Card sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            <TableCell>{h('timesheet')}</TableCell>
            <TableCell>{h('period')}</TableCell>
            <TableCell>{h('state')}</TableCell>
            <TableCell align="right">{h('lines')}</TableCell>
            <TableCell align="right">{h('hours')}</TableCell>
            <TableCell align="right">{h('charge')}</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((t) => (
            <TableRow key={t.id}>
              <TableCell>{t.number}</TableCell>
              <TableCell>{`${t.period_start} – ${t.period_end}`}</TableCell>
              <TableCell>
                <TimesheetState status={t.status} />
              </TableCell>
              <TableCell align="right">{done(t)}</TableCell>
              <TableCell align="right">{hoursText(t.hours)}</TableCell>
              <TableCell align="right">{formatPounds(Number(t.charge ?? 0))}</TableCell>
              <TableCell>{open(t)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}

/**
 * /client/signedTimesheet: the client's timesheets awaiting their signature and those signed (charge only, as
 * everywhere for clients). Opening one (?id=) shows its lines to approve, all or some, with a drawn signature and
 * their name, or to dispute with a reason.
 */
export function ClientTimesheets() {
  const translate = useTranslate();
  const [params, setParams] = useSearchParams();
  const open = Number(params.get('id')) || null;
  const [lists, setLists] = useState<{ awaiting: TimesheetRow[]; other: TimesheetRow[] } | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    if (open) return;
    Promise.all([
      requestAll<TimesheetRow>('/timesheets?status=submitted&sort=period_start&order=DESC'),
      request<{ data: TimesheetRow[] }>(
        '/timesheets?status=signed,verified,disputed,amended,locked&per_page=50&sort=period_start&order=DESC',
      ),
    ])
      .then(([a, o]) => setLists({ awaiting: a.data, other: o.data }))
      .catch((e) => setError(e instanceof ApiFailure ? e.message : String(e)));
  }, [open]);
  return (
    <Box sx={{ mt: 1 }}>
      <Title title="app.screens.client_signed_timesheets" />
      {open ? (
        <ClientTimesheet id={open} onBack={() => setParams({})} />
      ) : (
        <>
          {error && <Alert severity="error">{error}</Alert>}
          {!lists && !error && <CircularProgress aria-label={translate('ra.page.loading')} />}
          {lists && (
            <>
              <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
                {translate('app.timesheets.client.awaiting')}
              </Typography>
              {lists.awaiting.length === 0 ? (
                <Typography color="text.secondary" sx={{ mb: 2 }}>
                  {translate('app.timesheets.client.none_awaiting')}
                </Typography>
              ) : (
                <Box sx={{ mb: 3 }}>
                  <TimesheetTable
                    rows={lists.awaiting}
                    onOpen={(id) => setParams({ id: String(id) })}
                    label={translate('app.timesheets.client.awaiting')}
                  />
                </Box>
              )}
              <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
                {translate('app.timesheets.client.signed')}
              </Typography>
              {lists.other.length === 0 ? (
                <Typography color="text.secondary">{translate('app.timesheets.client.none_signed')}</Typography>
              ) : (
                <TimesheetTable
                  rows={lists.other}
                  onOpen={(id) => setParams({ id: String(id) })}
                  label={translate('app.timesheets.client.signed')}
                />
              )}
            </>
          )}
          <PhoneApprovers />
        </>
      )}
    </Box>
  );
}
