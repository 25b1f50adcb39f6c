import { useState } from 'react';
import { Box, Chip, Stack, Tab, Tabs, Typography } from '@mui/material';
import { FunctionField, Show, Title, TopToolbar, useRecordContext, useTranslate, type RaRecord } from 'react-admin';
import type { ResourceDeclaration } from '../../../core/engine/types';
import { RecordActions } from '../../engine/react/actions';
import { ChildList } from '../../engine/react/children';
import { HistoryPanel } from '../../engine/react/history';
import { ShowFields } from '../../engine/react/show';
import { DocumentButtons } from '../../engine/react/download';
import type { ViewOptions } from '../../engine/react/viewOptions';
import { EngineList } from '../../engine/react/list';
import { formatPounds } from '../../../core/engine/money';
import { useAgency } from '../../layout/useShellData';
import { DEFAULT_ZONE, hoursText, instantText, timeText } from './format';
import { InputFor } from '../../engine/react/inputs';
import { notAmendable } from '../../../core/resources/timesheets/resource';
import { TimesheetState } from './AgencyTimesheets';

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

/**
 * Scheduled and actual times of a line side by side, as a good review screen shows them: the times, "+1 day" when
 * the shift ends the next day, and the break named with its unit.
 */
function LineTimes({ which }: { which: 'scheduled' | 'actual'; label?: string; source?: string }) {
  const zone = useZone();
  const translate = useTranslate();
  return (
    <FunctionField
      render={(r: RaRecord) => {
        const [start, end, pause] =
          which === 'scheduled'
            ? [r.scheduled_start, r.scheduled_end, r.scheduled_break]
            : [r.actual_start, r.actual_end, r.break_minutes];
        if (!start) return '—';
        const times = translate('app.timesheets.agency.line_times', {
          start: timeText(start, zone),
          end: timeText(end, zone),
          next_day: nextDay(start, end, zone) ? translate('app.timesheets.agency.next_day') : '',
          minutes: pause ?? 0,
        });
        if (which === 'scheduled' || !r.outside_tolerance) return times;
        // Beyond the client's tolerance of the booking (issue 29.1): why the phone did not sign it.
        return (
          <>
            {times}
            <Typography
              variant="caption"
              component="p"
              sx={{ color: 'warning.dark', maxWidth: 320, whiteSpace: 'normal' }}
            >
              {r.outside_tolerance}
            </Typography>
          </>
        );
      }}
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
            <Typography
              variant="caption"
              component="p"
              sx={{ color: 'warning.dark', maxWidth: 320, whiteSpace: 'normal' }}
            >
              {r.repricing_note}
            </Typography>
          )}
        </>
      )}
    />
  );
}

/** A line's state as it is true: not sent while its timesheet is a draft; a dispute with the client's reason. */
function LineState(_: { label?: string; source?: string }) {
  const r = useRecordContext();
  const translate = useTranslate();
  if (!r) return null;
  const notSent = r.status === 'pending' && r.timesheet_status === 'draft';
  return (
    <Box>
      <Chip
        size="small"
        color={r.status === 'disputed' ? 'warning' : r.status === 'pending' ? 'default' : 'success'}
        label={translate(notSent ? 'app.timesheets.status.not_sent' : `app.timesheets.status.${r.status}`)}
      />
      {r.status === 'disputed' && r.dispute_reason && (
        <Typography variant="body2" color="warning.dark" sx={{ mt: 0.5, maxWidth: 260 }}>
          {translate('app.timesheets.agency.disputed_because', { reason: r.dispute_reason })}
        </Typography>
      )}
    </Box>
  );
}

function Lines({ lines }: { lines: ResourceDeclaration }) {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const site = lines.fields.find((f) => f.source === 'site_id')!;
  const note = lines.fields.find((f) => f.source === 'amendment_note')!;
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
      // A review of many lines: one line high each, the line's actions in its menu.
      rowActions="menu"
      columns={['work_date', 'candidate_name', 'scheduled', 'actual', 'hours', 'charge', 'pay', 'margin', 'status']}
      cells={{
        scheduled: <LineTimes which="scheduled" />,
        actual: <LineTimes which="actual" />,
        pay: <LinePay />,
        hours: <FunctionField render={(r: RaRecord) => hoursText(r.hours)} />,
        status: <LineState />,
      }}
      // Lines change only while the timesheet is not with the client (nor signed or locked): the button says so.
      createDisabledReason={notAmendable(record.status)}
      createOverrides={{
        // Only the sites this timesheet covers: its client's, or its one site.
        site_id: {
          input: (
            <InputFor
              of={site}
              referenceFilter={record.site_id ? { id: record.site_id } : { client_id: record.client_id }}
            />
          ),
        },
        // A line added by hand is an amendment: its note is asked for before the server has to.
        amendment_note: { input: <InputFor of={{ ...note, required: true }} /> },
      }}
    />
  );
}

/** Whether a shift's end falls on a later day than its start, on the agency's calendar. */
const nextDay = (start: string, end: string | null, zone: string) =>
  !!end && instantText(end, zone).slice(0, 10) > instantText(start, zone).slice(0, 10);

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
          <PdfOf decl={options.decl} />
        </TopToolbar>
      }
    >
      <Tabbed {...options} lines={lines} signatures={signatures} />
    </Show>
  );
}

function PdfOf({ decl }: { decl: ResourceDeclaration }) {
  const record = useRecordContext();
  return record ? <DocumentButtons decl={decl} id={record.id} /> : null;
}

/**
 * /timesheet/signed: the timesheets signed or verified in full (and those locked since), as a list: client, site,
 * period, state, lines signed or verified, totals and who signed, filtered by client, site, worker, state, period,
 * and what happened on the way (disputed, amended), searched by number, paged and exported like every list. Each
 * timesheet's signatures, with their images, are on its own screen.
 */
export function SignedTimesheets(options: ViewOptions) {
  return (
    <Box sx={{ mt: 1 }}>
      <Title title="app.screens.timesheet_signed" />
      <EngineList {...options} tabId="signed" title={false} />
    </Box>
  );
}
