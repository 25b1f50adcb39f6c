import { useState } from 'react';
import { Box, Typography } from '@mui/material';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import EventBusyIcon from '@mui/icons-material/EventBusy';
import { Button, useCanAccess, useGetList, useRecordContext, useTranslate } from 'react-admin';
import { EngineShow } from '../../engine/react/show';
import { type ViewOptions } from '../../engine/react/viewOptions';
import type { ResourceDeclaration, View } from '../../../core/engine/types';
import { EMPTY } from '../../engine/react/fields';
import { formatDisplayDate, instantToZoned } from '../../../core/domain/time/agencyTime';
import { AssignDialog } from './AssignDialog';
import { CancelDialog } from './CancelDialog';
import { QuoteTable } from './QuotePanel';
import { money, useAgencyTimeZone, type Quote, type QuoteLine } from './shared';
import { SHIFT_STATE, shiftResources } from '../../../core/resources/shifts/resource';
import { ChildList } from '../../engine/react/children';

/** An instant on the agency's clock: '28 Mar 2026, 20:00' (the browser's own zone may differ). */
export function AgencyTimeField({ source }: { source: string; label?: string; sortable?: boolean }) {
  const record = useRecordContext();
  const tz = useAgencyTimeZone();
  const value = record?.[source];
  if (!value || !tz) return <span>{EMPTY}</span>;
  const z = instantToZoned(new Date(value), tz);
  return <span style={{ whiteSpace: 'nowrap' }}>{`${formatDisplayDate(z.date)}, ${z.time}`}</span>;
}

/** The shift's quote as it was priced: its lines per band and totals. */
export function PriceLinesField(_: { source: string; label?: string }) {
  const record = useRecordContext();
  const lines = record?.price_lines as QuoteLine[] | null | undefined;
  if (!record || !Array.isArray(lines) || lines.length === 0) return <span>{EMPTY}</span>;
  const quote: Quote = {
    lines,
    totals: {
      hours: Number(record.hours ?? lines.reduce((a, l) => a + (l.hours ?? 0), 0)),
      pay: record.pay ?? undefined,
      charge: record.charge ?? 0,
      margin: record.margin ?? undefined,
    },
  };
  return (
    <Box sx={{ maxWidth: 760 }}>
      <QuoteTable quote={quote} />
    </Box>
  );
}

/** A listed shift's state: "Deleted" once removed (a deleted shift keeps its last status, often "Open"). */
export function ShiftStatusCell(_: { source?: string; label?: string }) {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const id = record.deleted_at ? 'deleted' : record.status;
  const choice = SHIFT_STATE.find((c) => c.id === id);
  return (
    <span>
      {choice ? translate(`resources.shifts.choices.state.${choice.id}`, { _: choice.name }) : String(id ?? EMPTY)}
    </span>
  );
}

/**
 * A listed shift's money: what it will cost or pay. A cancelled shift is not worked: its charge is the
 * late-cancellation charge (nothing when none applies), marked when the agency waived or changed it, and it has no
 * pay or margin; a shift deleted before it was cancelled has none at all.
 */
export function ShiftAmountCell({ source }: { source: 'charge' | 'pay' | 'margin'; label?: string }) {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  let pence: number | null | undefined = record[source];
  if (record.status === 'cancelled') pence = source === 'charge' ? (record.cancellation_charge ?? 0) : null;
  else if (record.deleted_at) pence = null;
  const changed = source === 'charge' && record.status === 'cancelled' && !!record.cancellation_charge_reason;
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      {money(pence)}
      {changed && ` (${translate(pence ? 'app.shifts.charge_changed' : 'app.shifts.charge_waived')})`}
    </span>
  );
}

/**
 * A shift's line on a phone's card, under its time and place: who is booked and what it costs, a cancelled shift
 * saying its charge is the cancellation's.
 */
export function ShiftCardLine() {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const cancelled = record.status === 'cancelled';
  return (
    <span>
      {record.candidate_name ? `${record.candidate_name} · ` : ''}
      {translate(cancelled ? 'app.shifts.client.cancellation_charge' : 'app.shifts.client.charge')}:{' '}
      <ShiftAmountCell source="charge" />
    </span>
  );
}

const timeFields = ['start_at', 'end_at', 'cancelled_at', 'deleted_at', 'created_at'];

/** Field overrides of every shift screen: times on the agency's clock, the quote lines as a table. */
export function shiftFieldOverrides(labels: Record<string, string>) {
  const out: Record<string, { field?: any; column?: any }> = {};
  for (const source of timeFields) {
    const label = labels[source] ?? source;
    out[source] = {
      // SimpleShowLayout labels it from its label and source.
      field: <AgencyTimeField key={source} source={source} label={label} />,
      column: <AgencyTimeField source={source} />,
    };
  }
  // Lists only: a shift's page shows its stored amounts and its cancellation or deletion in full.
  out.status = { column: <ShiftStatusCell /> };
  for (const source of ['charge', 'pay', 'margin'] as const)
    out[source] = { column: <ShiftAmountCell source={source} /> };
  out.price_lines = {
    field: <PriceLinesField key="price_lines" source="price_lines" label={labels.price_lines ?? 'Price lines'} />,
  };
  return out;
}

/** Assign (the dialog with suggestions and checks) and Cancel (with the charge shown first) on a shift's page. */
function ShiftShowActions() {
  const record = useRecordContext();
  const translate = useTranslate();
  const [open, setOpen] = useState<'assign' | 'cancel' | null>(null);
  const { canAccess: canAssign } = useCanAccess({ resource: 'shifts', action: 'assign' });
  const { canAccess: canCancel } = useCanAccess({ resource: 'shifts', action: 'cancel' });
  if (!record || record.deleted_at) return null;
  return (
    <>
      {canAssign && record.status === 'open' && (
        <Box component="span" data-action="assign" sx={{ display: 'inline-flex' }}>
          <Button label={translate('app.shifts.assign.button')} onClick={() => setOpen('assign')}>
            <PersonAddIcon />
          </Button>
        </Box>
      )}
      {canCancel && (record.status === 'open' || record.status === 'assigned') && (
        <Box component="span" data-action="cancel" sx={{ display: 'inline-flex' }}>
          <Button label={translate('app.shifts.cancel.button')} color="error" onClick={() => setOpen('cancel')}>
            <EventBusyIcon />
          </Button>
        </Box>
      )}
      {open === 'assign' && <AssignDialog shift={record as any} onClose={() => setOpen(null)} />}
      {open === 'cancel' && <CancelDialog shift={record as any} onClose={() => setOpen(null)} />}
    </>
  );
}

/**
 * The declaration with one field left out of one view: the booked staff member is both a reference (a link on the
 * shift's page) and a computed name (a plain list column, no look-up); each screen shows one of them.
 */
export function withoutView(decl: ResourceDeclaration, source: string, view: View): ResourceDeclaration {
  return {
    ...decl,
    fields: decl.fields.map((f) =>
      f.source === source
        ? { ...f, views: (f.views ?? ['list', 'show', 'edit', 'create']).filter((v) => v !== view) }
        : f,
    ),
  };
}

/** Actions the shift screens run through their own dialogs rather than the generated ones. */
const OWN_DIALOGS = ['assign', 'cancel', 'move'];

/**
 * The shift's page: the generated view (details, quote, status, booked staff, history) with Assign and Cancel of its
 * own.
 */
export function ShiftShow(props: ViewOptions) {
  const decl = {
    ...withoutView(props.decl, 'candidate_name', 'show'),
    actions: (props.decl.actions ?? []).filter((a) => !OWN_DIALOGS.includes(a.name)),
  };
  return (
    <EngineShow {...props} decl={decl} showActions={<ShiftShowActions />}>
      <StaffRequests />
    </EngineShow>
  );
}

const requestsDecl = shiftResources.find((d) => d.name === 'shift_requests')!;

/**
 * The staff members who asked for this shift on their phone page (issue 17): Accept books them with the shift's own
 * assign and its checks; Decline answers them.
 */
function StaffRequests() {
  const record = useRecordContext();
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: 'shift_requests', action: 'list' });
  // A shift nobody asked for shows no empty section (issue 30.19).
  const { total } = useGetList(
    'shift_requests',
    { filter: { shift_id: record?.id }, pagination: { page: 1, perPage: 1 } },
    { enabled: !!record && !!canAccess },
  );
  if (!record || !canAccess || !total) return null;
  return (
    <Box component="section" aria-labelledby="staff-requests" sx={{ px: 2, pb: 2 }}>
      <Typography id="staff-requests" component="h2" variant="h6" sx={{ mb: 1 }}>
        {translate('app.shifts.requests.title')}
      </Typography>
      <ChildList
        decl={requestsDecl}
        parentId={record.id}
        columns={['candidate_name', 'note', 'status', 'created_at']}
      />
    </Box>
  );
}
