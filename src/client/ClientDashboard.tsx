import { useMemo, useState, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Link as MuiLink,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { visuallyHidden } from '../theme';
import AddIcon from '@mui/icons-material/Add';
import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useCanAccess, useGetIdentity, useTranslate } from 'react-admin';
import { Link, useParams } from 'react-router';
import { api } from '../providers/http';
import { useAgency, useAgencyNotifications } from '../layout/useShellData';
import { PageHeader } from '../pages/PageHeader';
import { shiftWhen, useAgencyTimeZone } from '../resources/shifts/shared';
import { typedSignature } from '../resources/timesheets/SignaturePad';
import { hoursText } from '../resources/timesheets/format';
import { formatPounds } from '../../core/engine/money';
import type { ReportAnswer } from '../../core/contracts/reports';
import { formatDisplayDate } from '../../core/domain/time/agencyTime';
import {
  CLIENT_DASHBOARD_LINKS as LINKS,
  clientDashboardReads,
  PANEL_ROWS,
  shiftListLink,
  UPCOMING_DAYS,
  type ClientDashboardReads,
} from '../../core/resources/clientDashboard';

type Ref = { id: number; name?: string; label?: string };
interface Page<T> {
  data: T[];
  total_count: number;
  totals?: Record<string, number>;
  references?: Record<string, Ref[]>;
}
interface ShiftRow {
  id: number;
  start_at: string;
  end_at: string;
  site_id: number;
  job_role_id: number;
  candidate_name: string | null;
  status: string;
}
export interface AwaitingRow {
  id: number;
  number: string;
  period_start: string;
  period_end: string;
  line_count: number | null;
  payable_lines: number | null;
  hours: number | null;
  charge: number | null;
}
interface InvoiceRow {
  id: number;
  number: string;
  due_date: string | null;
  balance: number;
  overdue: boolean;
}
interface SiteRow {
  id: number;
  name: string;
}

const nameOf = (refs: Page<unknown>['references'], resource: string, id: number | null | undefined) => {
  const r = refs?.[resource]?.find((x) => x.id === id);
  return r ? String(r.name ?? r.label ?? '') : '';
};

/** Reads one of the dashboard's lists; each panel says its own loading, failure and emptiness. */
function useList<T>(key: string, path: string) {
  return useQuery({
    queryKey: ['client-dashboard', key, path],
    retry: false,
    queryFn: ({ signal }) => api<Page<T>>(path, { signal }),
  });
}

/** A panel: a named region with its heading, its body and the list it summarises. */
function Panel({
  id,
  title,
  more,
  children,
  actions,
}: {
  id: string;
  title: string;
  more?: { to: string; label: string };
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={`${id}-title`}
      sx={{ p: 2, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 1.5 }}
    >
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
        <Typography id={`${id}-title`} variant="h6" component="h2">
          {title}
        </Typography>
        {actions}
      </Stack>
      <Box sx={{ flex: 1, minWidth: 0 }}>{children}</Box>
      {more && (
        <MuiLink component={Link} to={more.to} sx={{ alignSelf: 'flex-start' }}>
          {more.label}
        </MuiLink>
      )}
    </Paper>
  );
}

/** Loading, a failure that says what to do (and Try again), or the panel's content once every read answered. */
function Loaded({
  queries,
  what,
  children,
}: {
  queries: UseQueryResult<unknown>[];
  what: string;
  children: () => ReactNode;
}) {
  const translate = useTranslate();
  if (queries.some((q) => q.isError))
    return (
      <Alert
        severity="warning"
        action={
          <Button color="inherit" size="small" onClick={() => queries.forEach((q) => void q.refetch())}>
            {translate('app.client_home.retry')}
          </Button>
        }
      >
        {translate('app.client_home.failed', { what })}
      </Alert>
    );
  if (queries.some((q) => q.isPending))
    return (
      <Box aria-busy="true">
        <Typography role="status" color="text.secondary" variant="body2" sx={{ mb: 1 }}>
          {translate('app.client_home.loading', { what })}
        </Typography>
        <Skeleton variant="rounded" height={64} />
      </Box>
    );
  return <>{children()}</>;
}

const rowList = { listStyle: 'none', p: 0, m: 0, '& > li': { py: 1, borderBottom: 1, borderColor: 'divider' } };

function ShiftsPanel({ reads, siteId }: { reads: ClientDashboardReads; siteId?: number }) {
  const translate = useTranslate();
  const tz = useAgencyTimeZone();
  const { canAccess: canRequest } = useCanAccess({ resource: 'shifts', action: 'create' });
  const unfilled = useList<ShiftRow>('unfilled', reads.unfilled);
  const filled = useList<ShiftRow>('filled', reads.filled);
  const title = translate('app.client_home.shifts.title', { days: UPCOMING_DAYS });
  return (
    <Panel
      id="dashboard-shifts"
      title={title}
      more={{ to: LINKS.unfilled, label: translate('app.client_home.shifts.all') }}
      actions={
        canRequest ? (
          <Button component={Link} to={LINKS.requestShift} variant="contained" size="small" startIcon={<AddIcon />}>
            {translate('app.client_home.shifts.request')}
          </Button>
        ) : undefined
      }
    >
      <Loaded queries={[unfilled, filled]} what={translate('app.client_home.shifts.what')}>
        {() => {
          const u = unfilled.data!;
          const f = filled.data!;
          const refs = { sites: [...(u.references?.sites ?? []), ...(f.references?.sites ?? [])] };
          const roles = [...(u.references?.job_roles ?? []), ...(f.references?.job_roles ?? [])];
          // The soonest of both lists (each its soonest page, so the union holds the soonest of all).
          const rows = [...u.data, ...f.data]
            .sort((a, b) => a.start_at.localeCompare(b.start_at) || a.id - b.id)
            .slice(0, PANEL_ROWS);
          return (
            <>
              <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap', mb: 1 }}>
                <MuiLink component={Link} to={shiftListLink(LINKS.unfilled, reads.window, siteId)}>
                  {translate('app.client_home.shifts.unfilled', { smart_count: u.total_count })}
                </MuiLink>
                <Typography component="span" aria-hidden>
                  ·
                </Typography>
                <MuiLink component={Link} to={shiftListLink(LINKS.filled, reads.window, siteId)}>
                  {translate('app.client_home.shifts.filled', { smart_count: f.total_count })}
                </MuiLink>
              </Stack>
              {rows.length === 0 ? (
                <Typography color="text.secondary">
                  {translate('app.client_home.shifts.none', { days: UPCOMING_DAYS })}
                </Typography>
              ) : (
                <Box component="ul" aria-label={title} sx={rowList}>
                  {rows.map((s) => {
                    const role = nameOf({ job_roles: roles }, 'job_roles', s.job_role_id);
                    return (
                      <li key={s.id}>
                        <Typography sx={{ fontWeight: 500 }}>{shiftWhen(s.start_at, s.end_at, tz)}</Typography>
                        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                          {[nameOf(refs, 'sites', s.site_id), role].filter(Boolean).join(' · ')}
                        </Typography>
                        <Typography variant="body2" component="div">
                          {s.status === 'assigned' && s.candidate_name ? (
                            translate('app.client_home.shifts.booked', { name: s.candidate_name })
                          ) : (
                            <Chip size="small" variant="outlined" label={translate('app.client_home.shifts.open')} />
                          )}
                        </Typography>
                      </li>
                    );
                  })}
                </Box>
              )}
            </>
          );
        }}
      </Loaded>
    </Panel>
  );
}

/** "Sign timesheet TS-00002?": what is signed, as whom, the signature given; Sign runs the timesheet's approve. */
function SignDialog({
  timesheet,
  signer,
  onClose,
  onSigned,
}: {
  timesheet: AwaitingRow;
  signer: string;
  onClose: () => void;
  onSigned: (message: string) => void;
}) {
  const translate = useTranslate();
  const t = (k: string, o?: object) => translate(`app.client_home.sign.${k}`, o);
  const signature = useMemo(() => typedSignature(signer), [signer]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const waiting = Math.max(0, Number(timesheet.line_count ?? 0) - Number(timesheet.payable_lines ?? 0));
  const sign = async () => {
    setBusy(true);
    setError('');
    try {
      await api(`/timesheets/${timesheet.id}/actions/approve`, {
        method: 'POST',
        json: { signer_name: signer, signature },
      });
      onSigned(t('signed', { number: timesheet.number, smart_count: waiting, name: signer }));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  };
  const rows: [string, string][] = [
    [t('period'), `${formatDisplayDate(timesheet.period_start)} – ${formatDisplayDate(timesheet.period_end)}`],
    [t('lines'), t('lines_value', { smart_count: waiting, all: timesheet.line_count ?? 0 })],
    [t('hours'), hoursText(timesheet.hours)],
    [t('charge'), formatPounds(Number(timesheet.charge ?? 0))],
  ];
  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby="sign-title" aria-describedby="sign-what">
      <DialogTitle id="sign-title">{t('title', { number: timesheet.number })}</DialogTitle>
      <DialogContent>
        <Box component="dl" id="sign-what" sx={{ m: 0, mb: 2 }}>
          {rows.map(([k, v]) => (
            <Box
              key={k}
              sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 3fr)', gap: 1, py: 0.5 }}
            >
              <Typography component="dt" color="text.secondary">
                {k}
              </Typography>
              <Typography component="dd" sx={{ m: 0 }}>
                {v}
              </Typography>
            </Box>
          ))}
        </Box>
        {signature ? (
          <>
            <Typography variant="body2">{t('as', { name: signer })}</Typography>
            <Box
              component="img"
              src={signature}
              alt={t('signature_alt', { name: signer })}
              sx={{ display: 'block', width: '100%', maxWidth: 360, border: 1, borderColor: 'divider', mt: 1 }}
            />
          </>
        ) : (
          <Alert severity="info">{t('no_canvas')}</Alert>
        )}
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}{' '}
            <MuiLink component={Link} to={`${LINKS.timesheets}?id=${timesheet.id}`}>
              {t('review_instead')}
            </MuiLink>
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {translate('ra.action.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void sign()} disabled={busy || !signature}>
          {t('confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function TimesheetsPanel({ reads }: { reads: ClientDashboardReads }) {
  const translate = useTranslate();
  const t = (k: string, o?: object) => translate(`app.client_home.timesheets.${k}`, o);
  const queryClient = useQueryClient();
  const { identity } = useGetIdentity();
  const { canAccess: canSign } = useCanAccess({ resource: 'timesheets', action: 'approve' });
  const awaiting = useList<AwaitingRow>('awaiting', reads.awaitingSignature);
  const [signing, setSigning] = useState<AwaitingRow | null>(null);
  const [done, setDone] = useState('');
  const signer = String(identity?.fullName ?? '').trim();
  return (
    <Panel id="dashboard-timesheets" title={t('title')} more={{ to: LINKS.timesheets, label: t('all') }}>
      <Box role="status" aria-live="polite">
        {done && (
          <Alert severity="success" sx={{ mb: 1 }}>
            {done}
          </Alert>
        )}
      </Box>
      <Loaded queries={[awaiting]} what={t('what')}>
        {() =>
          awaiting.data!.data.length === 0 ? (
            <Typography color="text.secondary">{t('none')}</Typography>
          ) : (
            <>
              {awaiting.data!.total_count > awaiting.data!.data.length && (
                <Typography variant="body2" sx={{ mb: 1 }}>
                  {t('shown', { shown: awaiting.data!.data.length, smart_count: awaiting.data!.total_count })}
                </Typography>
              )}
              <Box component="ul" aria-label={t('title')} sx={rowList}>
                {awaiting.data!.data.map((ts) => (
                  <li key={ts.id}>
                    <Typography sx={{ fontWeight: 500 }}>{ts.number}</Typography>
                    <Typography variant="body2" color="text.secondary">
                      {`${formatDisplayDate(ts.period_start)} – ${formatDisplayDate(ts.period_end)} · ${hoursText(ts.hours)} h · ${formatPounds(Number(ts.charge ?? 0))}`}
                    </Typography>
                    <Stack direction="row" sx={{ gap: 1, mt: 0.5, flexWrap: 'wrap', alignItems: 'center' }}>
                      {canSign && signer && (
                        <Button
                          size="small"
                          variant="contained"
                          onClick={() => (setDone(''), setSigning(ts))}
                          aria-label={t('sign_one', { number: ts.number })}
                        >
                          {t('sign')}
                        </Button>
                      )}
                      <MuiLink
                        component={Link}
                        to={`${LINKS.timesheets}?id=${ts.id}`}
                        aria-label={t('review_one', { number: ts.number })}
                      >
                        {t('review')}
                      </MuiLink>
                    </Stack>
                  </li>
                ))}
              </Box>
            </>
          )
        }
      </Loaded>
      {signing && (
        <SignDialog
          timesheet={signing}
          signer={signer}
          onClose={() => setSigning(null)}
          onSigned={(message) => {
            setSigning(null);
            setDone(message);
            void queryClient.invalidateQueries({ queryKey: ['client-dashboard'] });
          }}
        />
      )}
    </Panel>
  );
}

function InvoicesPanel({ reads }: { reads: ClientDashboardReads }) {
  const translate = useTranslate();
  const t = (k: string, o?: object) => translate(`app.client_home.invoices.${k}`, o);
  const due = useList<InvoiceRow>('invoices-due', reads.invoicesDue);
  const overdue = useList<InvoiceRow>('invoices-overdue', reads.invoicesOverdue);
  return (
    <Panel id="dashboard-invoices" title={t('title')} more={{ to: LINKS.invoices, label: t('all') }}>
      <Loaded queries={[due, overdue]} what={t('what')}>
        {() => {
          const d = due.data!;
          const o = overdue.data!;
          if (d.total_count === 0) return <Typography color="text.secondary">{t('none')}</Typography>;
          const figures: [string, string][] = [
            [t('balance'), formatPounds(Number(d.totals?.balance ?? 0))],
            [t('overdue'), formatPounds(Number(o.totals?.balance ?? 0))],
          ];
          return (
            <>
              <Box component="dl" sx={{ m: 0, mb: 1, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2 }}>
                {figures.map(([k, v], i) => (
                  <Box key={k} sx={{ display: 'contents' }}>
                    <Typography component="dt" color="text.secondary">
                      {k}
                    </Typography>
                    <Typography
                      component="dd"
                      sx={{ m: 0, fontWeight: 600, color: i === 1 && o.total_count > 0 ? 'error.main' : undefined }}
                    >
                      {v}
                      <Typography component="span" variant="body2" color="text.secondary">
                        {` (${t('count', { smart_count: i === 0 ? d.total_count : o.total_count })})`}
                      </Typography>
                    </Typography>
                  </Box>
                ))}
              </Box>
              <Box component="ul" aria-label={t('list')} sx={rowList}>
                {d.data.map((inv) => (
                  <li key={inv.id}>
                    <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
                      <MuiLink component={Link} to={`${LINKS.invoices}/${inv.id}`} sx={{ fontWeight: 500 }}>
                        {inv.number}
                      </MuiLink>
                      <Typography component="span">{formatPounds(Number(inv.balance))}</Typography>
                      {inv.overdue && <Chip size="small" color="error" label={t('overdue_chip')} />}
                    </Stack>
                    <Typography variant="body2" color="text.secondary">
                      {inv.due_date ? t('due', { date: formatDisplayDate(inv.due_date) }) : ''}
                    </Typography>
                  </li>
                ))}
              </Box>
            </>
          );
        }}
      </Loaded>
    </Panel>
  );
}

/** One table of the spend: a row per group, its charge, and a bar of it (the figure is the text; the bar is drawn). */
function SpendTable({
  caption,
  head,
  rows,
}: {
  caption: string;
  head: string;
  rows: { key: string; name: string; charge: number }[];
}) {
  const translate = useTranslate();
  const most = Math.max(1, ...rows.map((r) => r.charge));
  return (
    <Table size="small" sx={{ tableLayout: 'fixed', mb: 2 }}>
      <caption style={{ captionSide: 'top', textAlign: 'left', padding: 0, fontWeight: 600 }}>{caption}</caption>
      <TableHead>
        <TableRow>
          <TableCell sx={{ width: '40%', px: 0.5 }}>{head}</TableCell>
          <TableCell align="right" sx={{ width: '30%', px: 0.5 }}>
            {translate('app.client_home.spend.charge')}
          </TableCell>
          <TableCell sx={{ width: '30%', px: 0.5 }}>
            <Box component="span" sx={visuallyHidden}>
              {translate('app.client_home.spend.bar')}
            </Box>
          </TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((r) => (
          <TableRow key={r.key}>
            <TableCell sx={{ px: 0.5, overflowWrap: 'anywhere' }}>{r.name}</TableCell>
            <TableCell align="right" sx={{ px: 0.5 }}>
              {formatPounds(r.charge)}
            </TableCell>
            <TableCell sx={{ px: 0.5 }}>
              <Box
                aria-hidden
                sx={{
                  height: 10,
                  borderRadius: 1,
                  bgcolor: 'primary.main',
                  // A bar's length, not an amount: CSS takes the fraction as it is.
                  width: `${(r.charge / most) * 100}%`,
                }}
              />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * Spend by week and by site: the declared report `client_spend` (the charge of booked and worked shifts; never pay or
 * margin), under the client's scope as every report is served.
 */
function SpendPanel({ reads }: { reads: ClientDashboardReads }) {
  const translate = useTranslate();
  const t = (k: string, o?: object) => translate(`app.client_home.spend.${k}`, o);
  const byWeek = useQuery({
    queryKey: ['client-dashboard', 'spend-week', reads.spendByWeek],
    retry: false,
    queryFn: ({ signal }) => api<ReportAnswer>(reads.spendByWeek, { signal }),
  });
  const bySite = useQuery({
    queryKey: ['client-dashboard', 'spend-site', reads.spendBySite],
    retry: false,
    queryFn: ({ signal }) => api<ReportAnswer>(reads.spendBySite, { signal }),
  });
  return (
    <Panel id="dashboard-spend" title={t('title')}>
      <Loaded queries={[byWeek, bySite]} what={t('what')}>
        {() => {
          const total = Number(byWeek.data!.totals.charge ?? 0);
          if (byWeek.data!.data.length === 0 || total === 0)
            return <Typography color="text.secondary">{t('none')}</Typography>;
          const { from, to } = byWeek.data!.period!;
          return (
            <>
              <Typography sx={{ mb: 1 }}>
                {t('total', {
                  amount: formatPounds(total),
                  smart_count: Number(byWeek.data!.totals.shifts ?? 0),
                  from: formatDisplayDate(from),
                  to: formatDisplayDate(to),
                })}
              </Typography>
              <SpendTable
                caption={t('by_week')}
                head={t('week')}
                rows={byWeek.data!.data.map((r) => ({
                  key: String(r.week),
                  name: r.week ? formatDisplayDate(String(r.week)) : '—',
                  charge: Number(r.charge ?? 0),
                }))}
              />
              <SpendTable
                caption={t('by_site')}
                head={t('site')}
                rows={bySite.data!.data.map((r) => ({
                  key: String(r.site_id ?? r.site),
                  name: String(r.site ?? '—'),
                  charge: Number(r.charge ?? 0),
                }))}
              />
            </>
          );
        }}
      </Loaded>
    </Panel>
  );
}

const NOTIFICATIONS_SHOWN = 5;

function NotificationsPanel() {
  const translate = useTranslate();
  const t = (k: string, o?: object) => translate(`app.client_home.notifications.${k}`, o);
  const inbox = useAgencyNotifications();
  return (
    <Panel id="dashboard-notifications" title={t('title')} more={{ to: LINKS.notifications, label: t('all') }}>
      <Loaded queries={[inbox]} what={t('what')}>
        {() => {
          const rows = inbox.data!.notifications.slice(0, NOTIFICATIONS_SHOWN);
          if (rows.length === 0) return <Typography color="text.secondary">{t('none')}</Typography>;
          return (
            <Box component="ul" aria-label={t('title')} sx={rowList}>
              {rows.map((n) => (
                <li key={n.id}>
                  <Typography sx={{ fontWeight: n.read ? 400 : 600 }}>
                    {n.link ? (
                      <MuiLink component={Link} to={n.link}>
                        {n.title}
                      </MuiLink>
                    ) : (
                      n.title
                    )}
                    {!n.read && (
                      <Typography component="span" variant="body2" color="text.secondary">
                        {` (${t('unread')})`}
                      </Typography>
                    )}
                  </Typography>
                  {n.body && (
                    <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                      {n.body}
                    </Typography>
                  )}
                  <Typography variant="caption" color="text.secondary">
                    {new Date(n.created_at).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}
                  </Typography>
                </li>
              ))}
            </Box>
          );
        }}
      </Loaded>
    </Panel>
  );
}

/** The client's sites, each a dashboard of its own; the whole client first. */
function SiteNav({ current }: { current?: number }) {
  const translate = useTranslate();
  const list = useList<SiteRow>('sites', '/sites?sort=name&order=ASC&per_page=100');
  const sites = list.data?.data ?? [];
  if (sites.length < 2) return null;
  const item = (to: string, label: string, here: boolean) => (
    <li key={to}>
      <Chip
        component={Link}
        to={to}
        clickable
        label={label}
        color={here ? 'primary' : 'default'}
        variant={here ? 'filled' : 'outlined'}
        aria-current={here ? 'page' : undefined}
      />
    </li>
  );
  return (
    <Box component="nav" aria-label={translate('app.client_home.sites')} sx={{ mb: 2 }}>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        {item('/client/clientDashboard', translate('app.client_home.all_sites'), !current)}
        {sites.map((s) => item(`/client/clientDashboard/${s.id}`, s.name, s.id === current))}
      </Box>
    </Box>
  );
}

/**
 * /client/clientDashboard (the whole client) and /client/clientDashboard/{site id} (one of its sites): the shifts of
 * the next 7 days, filled and unfilled, and "Request a shift"; timesheets awaiting the user's signature, signed here
 * in one click; invoices due and overdue with their balance; spend by week and by site (a declared report); the
 * latest notifications. Each panel is a page of the
 * engine's own list (core/resources/clientDashboard.ts) and links to the client panel's list it summarises.
 */
export function ClientDashboard() {
  const translate = useTranslate();
  const { id } = useParams();
  const siteId = id === undefined ? undefined : /^\d{1,9}$/.test(id) ? Number(id) : NaN;
  const { identity } = useGetIdentity();
  const agency = useAgency();
  // The moment the window of upcoming shifts starts: fixed while the page is open, so the lists opened agree.
  const [now] = useState(() => new Date());
  const reads = useMemo(() => clientDashboardReads(now, Number.isNaN(siteId) ? undefined : siteId), [now, siteId]);
  const site = useQuery({
    queryKey: ['client-dashboard', 'site', siteId],
    enabled: siteId !== undefined && !Number.isNaN(siteId),
    retry: false,
    queryFn: ({ signal }) => api<{ data: SiteRow }>(reads.site!, { signal }),
  });
  const notFound = Number.isNaN(siteId) || (site.isError && (site.error as { status?: number }).status === 404);
  const title = site.data
    ? translate('app.client_home.site_title', { name: site.data.data.name })
    : translate('app.client_home.title');
  const clientName = identity?.clientName as string | undefined;
  return (
    <Box sx={{ maxWidth: 1200 }}>
      <PageHeader title={title} />
      <Typography sx={{ mb: 2 }}>
        {identity?.fullName
          ? translate('app.client_home.greeting', { name: identity.fullName })
          : translate('app.home.greeting_anonymous')}
        {clientName && agency.data?.companyName
          ? ` ${translate('app.client_home.with_agency', { client: clientName, agency: agency.data.companyName })}`
          : ''}
      </Typography>
      <SiteNav current={siteId} />
      {notFound ? (
        <Alert severity="warning">
          {translate('app.client_home.site_not_found')}{' '}
          <MuiLink component={Link} to="/client/clientDashboard">
            {translate('app.client_home.back')}
          </MuiLink>
        </Alert>
      ) : siteId !== undefined && site.isError ? (
        <Alert
          severity="warning"
          action={
            <Button color="inherit" size="small" onClick={() => void site.refetch()}>
              {translate('app.client_home.retry')}
            </Button>
          }
        >
          {translate('app.client_home.failed', { what: translate('app.client_home.site_what') })}
        </Alert>
      ) : siteId !== undefined && site.isPending ? (
        <Typography role="status" color="text.secondary">
          {translate('app.client_home.loading', { what: translate('app.client_home.site_what') })}
        </Typography>
      ) : (
        <>
          {siteId !== undefined && (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {translate('app.client_home.site_note')}
            </Typography>
          )}
          <Box
            sx={{
              display: 'grid',
              gap: 2,
              gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' },
            }}
          >
            <ShiftsPanel reads={reads} siteId={siteId} />
            <TimesheetsPanel reads={reads} />
            <InvoicesPanel reads={reads} />
            <SpendPanel reads={reads} />
            <NotificationsPanel />
          </Box>
        </>
      )}
    </Box>
  );
}
