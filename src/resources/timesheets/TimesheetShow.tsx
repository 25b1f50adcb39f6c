import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import {
  Alert,
  Box,
  Card,
  CircularProgress,
  Stack,
  Tab,
  Tabs,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import {
  Button,
  FunctionField,
  Show,
  Title,
  TopToolbar,
  useNotify,
  useRecordContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import type { ResourceDeclaration } from '../../../core/engine/types';
import { RecordActions } from '../../engine/react/actions';
import { ChildList } from '../../engine/react/children';
import { HistoryPanel } from '../../engine/react/history';
import { ShowFields } from '../../engine/react/show';
import { downloadFrom } from '../../engine/react/download';
import type { ViewOptions } from '../../engine/react/viewOptions';
import { ApiFailure, request } from '../../providers/request';
import { formatPounds } from '../../../core/engine/money';
import { useAgency } from '../../layout/useShellData';
import { DEFAULT_ZONE, hoursText, instantText, timeText } from './format';
import { TimesheetState } from './AgencyTimesheets';

/** The printable timesheet (lines, signatures, totals), made on the server. */
export function PdfButton({ id }: { id: number | string }) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      label="app.timesheets.agency.pdf"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await downloadFrom(`/timesheets/${id}/pdf`);
        } catch (e) {
          notify(e instanceof Error ? e.message : String(e), { type: 'error' });
        } finally {
          setBusy(false);
        }
      }}
    >
      <PictureAsPdfIcon />
    </Button>
  );
}

/** A drawn signature, as an image named for its signer. */
export function SignatureImage({ src, signer }: { src: string | null | undefined; signer: string }) {
  const translate = useTranslate();
  if (!src) return null;
  return (
    <Box
      component="img"
      src={src}
      alt={translate('app.timesheets.agency.signature_of', { name: signer })}
      sx={{ height: 48, maxWidth: 200, objectFit: 'contain', bgcolor: '#fff', border: 1, borderColor: 'divider' }}
    />
  );
}

/** The agency's time zone, for the times these screens show. */
export const useZone = () => useAgency().data?.timeZone ?? DEFAULT_ZONE;

/** Scheduled and actual times of a line side by side, as a good review screen shows them (break in minutes). */
function LineTimes({ which }: { which: 'scheduled' | 'actual'; label?: string; source?: string }) {
  const zone = useZone();
  return (
    <FunctionField
      render={(r: RaRecord) =>
        which === 'scheduled'
          ? `${instantText(r.scheduled_start, zone)}–${timeText(r.scheduled_end, zone)} (${r.scheduled_break ?? 0} min)`
          : `${instantText(r.actual_start, zone)}–${timeText(r.actual_end, zone)} (${r.break_minutes ?? 0} min)`
      }
    />
  );
}

/**
 * A line's pay, and under it why it differs from the shift as booked when it does (issue 30.6): one pay figure, or
 * a visible note.
 */
function LinePay(_props: { label?: string; source?: string }) {
  return (
    <FunctionField
      render={(r: RaRecord) => (
        <>
          {r.pay == null ? '—' : formatPounds(Number(r.pay))}
          {r.repricing_note && (
            <Typography variant="caption" component="p" sx={{ color: 'warning.dark', maxWidth: 320 }}>
              {r.repricing_note}
            </Typography>
          )}
        </>
      )}
    />
  );
}

function Lines({ lines }: { lines: ResourceDeclaration }) {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <ChildList
      decl={{
        ...lines,
        fields: [
          ...lines.fields,
          { source: 'scheduled', type: 'text', label: translate('app.timesheets.agency.scheduled'), views: [] },
          { source: 'actual', type: 'text', label: translate('app.timesheets.agency.actual'), views: [] },
        ],
      }}
      parentId={record.id}
      columns={['work_date', 'candidate_name', 'scheduled', 'actual', 'hours', 'charge', 'pay', 'margin', 'status']}
      cells={{
        scheduled: <LineTimes which="scheduled" />,
        actual: <LineTimes which="actual" />,
        pay: <LinePay />,
      }}
    />
  );
}

function Signatures({ signatures }: { signatures: ResourceDeclaration }) {
  const record = useRecordContext();
  if (!record) return null;
  return (
    <ChildList
      decl={signatures}
      parentId={record.id}
      columns={['signer_name', 'signature', 'signed_via', 'ip_address', 'signed_at', 'line_count']}
      cells={{
        signature: (
          <FunctionField render={(r: RaRecord) => <SignatureImage src={r.signature} signer={r.signer_name} />} />
        ),
      }}
    />
  );
}

function Tabbed({
  decl,
  lines,
  signatures,
}: ViewOptions & { lines: ResourceDeclaration; signatures: ResourceDeclaration }) {
  const translate = useTranslate();
  const record = useRecordContext();
  const [tab, setTab] = useState(0);
  if (!record) return null;
  const tabs = ['lines', 'signatures', 'details', 'history'];
  return (
    <Box sx={{ px: { xs: 1, sm: 2 }, pb: 2 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', py: 1 }} useFlexGap>
        <Typography component="h2" variant="h6">
          {`${record.number} · ${record.period_start} – ${record.period_end}`}
        </Typography>
        <TimesheetState status={record.status} />
        <Typography variant="body2">
          {translate('app.timesheets.agency.totals', {
            hours: hoursText(record.hours),
            charge: formatPounds(Number(record.charge ?? 0)),
            pay: formatPounds(Number(record.pay ?? 0)),
            margin: formatPounds(Number(record.margin ?? 0)),
          })}
        </Typography>
      </Stack>
      <Tabs
        value={tab}
        onChange={(_, v) => setTab(v)}
        aria-label={translate('app.timesheets.agency.tabs')}
        variant="scrollable"
      >
        {tabs.map((t, i) => (
          <Tab
            key={t}
            label={translate(`app.timesheets.agency.tab_${t}`)}
            id={`ts-tab-${t}`}
            aria-controls={`ts-panel-${t}`}
            value={i}
          />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`ts-panel-${tabs[tab]}`} aria-labelledby={`ts-tab-${tabs[tab]}`} sx={{ pt: 2 }}>
        {tab === 0 && <Lines lines={lines} />}
        {tab === 1 && <Signatures signatures={signatures} />}
        {tab === 2 && <ShowFields decl={decl} />}
        {tab === 3 && <HistoryPanel target={{ resource: decl.name, id: record.id, subject: true }} />}
      </Box>
    </Box>
  );
}

/**
 * One timesheet for the agency: its state and totals, the actions its state allows (submit, mark amended, verify
 * by the agency with a reason and evidence, lock), the printable PDF, and tabs: the lines (scheduled beside actual,
 * hours, charge, pay and margin, each with Amend and Verify), the signatures, the details and the history.
 */
export function TimesheetShow({
  lines,
  signatures,
  ...options
}: ViewOptions & { lines: ResourceDeclaration; signatures: ResourceDeclaration }) {
  return (
    <Show
      resource={options.decl.name}
      actions={
        <TopToolbar>
          <RecordActions decl={options.decl} />
          <PdfOf />
        </TopToolbar>
      }
    >
      <Tabbed {...options} lines={lines} signatures={signatures} />
    </Show>
  );
}

function PdfOf() {
  const record = useRecordContext();
  return record ? <PdfButton id={record.id} /> : null;
}

interface SignatureRow {
  id: number;
  timesheet_id: number;
  signer_name: string;
  signature: string | null;
  signed_via: 'panel' | 'link' | 'phone';
  ip_address: string | null;
  signed_at: string;
  line_count: number;
}

/**
 * /timesheet/signed: every signature given on the agency's timesheets, newest first: who signed, their drawn
 * signature, when, how (client panel, signing link, staff member's phone) and the address it came from, with the
 * timesheet and its printable PDF.
 */
export function SignedTimesheets() {
  const translate = useTranslate();
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{
    rows: SignatureRow[];
    pages: number;
    timesheets: Map<number, { number?: string }>;
  } | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    let current = true;
    request<{
      data: SignatureRow[];
      total_pages: number;
      references?: Record<string, { id: number; number?: string }[]>;
    }>(`/timesheet_signatures?sort=signed_at&order=DESC&per_page=25&page=${page}`)
      .then((r) => {
        if (!current) return;
        const timesheets = new Map((r.references?.timesheets ?? []).map((t) => [t.id, t]));
        setData({ rows: r.data, pages: r.total_pages, timesheets });
      })
      .catch((e) => current && setError(e instanceof ApiFailure ? e.message : String(e)));
    return () => {
      current = false;
    };
  }, [page]);
  const h = (k: string) => translate(`app.timesheets.agency.${k}`);
  const zone = useZone();
  // On a phone each signature is a card: a table's PDF button would sit past the screen's edge.
  const phone = useMediaQuery(useTheme().breakpoints.down('md'));
  return (
    <Box sx={{ mt: 1 }}>
      <Title title="app.screens.timesheet_signed" />
      {error && <Alert severity="error">{error}</Alert>}
      {!data && !error && <CircularProgress aria-label={translate('ra.page.loading')} />}
      {data && data.rows.length === 0 && <Typography>{h('no_signed')}</Typography>}
      {data && data.rows.length > 0 && phone && (
        <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label={h('signed_table')}>
          {data.rows.map((r) => (
            <Card component="li" key={r.id} variant="outlined" sx={{ p: 1.5 }}>
              <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                <RouterLink to={`/timesheets/${r.timesheet_id}/show`}>
                  {data.timesheets.get(r.timesheet_id)?.number ?? `#${r.timesheet_id}`}
                </RouterLink>
                <Typography sx={{ flex: 1 }}>{r.signer_name}</Typography>
                <PdfButton id={r.timesheet_id} />
              </Stack>
              <SignatureImage src={r.signature} signer={r.signer_name} />
              <Typography variant="body2">
                {`${instantText(r.signed_at, zone)} · ${translate(`app.timesheets.signed_via.${r.signed_via}`)} · ${r.ip_address ?? '—'} · ${h('lines')}: ${r.line_count}`}
              </Typography>
            </Card>
          ))}
        </Stack>
      )}
      {data && data.rows.length > 0 && !phone && (
        <Card sx={{ overflowX: 'auto' }}>
          <Box
            component="table"
            sx={{
              width: '100%',
              borderCollapse: 'collapse',
              '& td, & th': { p: 1, borderBottom: 1, borderColor: 'divider', textAlign: 'left', verticalAlign: 'top' },
            }}
            aria-label={h('signed_table')}
          >
            <thead>
              <tr>
                <th scope="col">{h('timesheet')}</th>
                <th scope="col">{h('signer')}</th>
                <th scope="col">{h('signature')}</th>
                <th scope="col">{h('signed_at')}</th>
                <th scope="col">{h('signed_via')}</th>
                <th scope="col">{h('address')}</th>
                <th scope="col">{h('lines')}</th>
                <th scope="col">{h('pdf')}</th>
              </tr>
            </thead>
            <tbody>
              {data.rows.map((r) => (
                <tr key={r.id}>
                  <td>
                    <RouterLink to={`/timesheets/${r.timesheet_id}/show`}>
                      {data.timesheets.get(r.timesheet_id)?.number ?? `#${r.timesheet_id}`}
                    </RouterLink>
                  </td>
                  <td>{r.signer_name}</td>
                  <td>
                    <SignatureImage src={r.signature} signer={r.signer_name} />
                  </td>
                  <td>{instantText(r.signed_at, zone)}</td>
                  <td>{translate(`app.timesheets.signed_via.${r.signed_via}`)}</td>
                  <td>{r.ip_address ?? '—'}</td>
                  <td>{r.line_count}</td>
                  <td>
                    <PdfButton id={r.timesheet_id} />
                  </td>
                </tr>
              ))}
            </tbody>
          </Box>
          {data.pages > 1 && (
            <Stack direction="row" spacing={1} sx={{ p: 1, justifyContent: 'flex-end' }}>
              <Button label="ra.navigation.previous" disabled={page <= 1} onClick={() => setPage(page - 1)} />
              <Button label="ra.navigation.next" disabled={page >= data.pages} onClick={() => setPage(page + 1)} />
            </Stack>
          )}
        </Card>
      )}
    </Box>
  );
}
