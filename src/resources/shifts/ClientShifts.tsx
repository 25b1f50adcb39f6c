import { useState } from 'react';
import { Box, Card, CardActions, CardContent, Stack, Typography, useMediaQuery, type Theme } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import EventBusyIcon from '@mui/icons-material/EventBusy';
import {
  Button,
  DataTable,
  List,
  Pagination,
  RecordContextProvider,
  ReferenceField,
  ResourceContextProvider,
  TopToolbar,
  useCanAccess,
  useGetIdentity,
  useListContext,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { Link } from 'react-router';
import { EMPTY } from '../../engine/react/fields';
import { PrintListButton } from '../../engine/react/download';
import { CancelDialog } from './CancelDialog';
import { ShiftCreateForm } from './ShiftCreate';
import { AgencyTimeField, ShiftAmountCell, ShiftCardLine, ShiftStatusCell } from './ShiftViews';
import { shiftsDecl, useAgencyTimeZone } from './shared';
import { formatDisplayDate, instantToZoned } from '../../../core/domain/time/agencyTime';

/** The client panel's four lists: route segment → the declaration's tab. */
export const CLIENT_TABS = [
  { path: '/client/shift/open-shift', tab: 'open' },
  { path: '/client/shift/assign-shift', tab: 'assigned' },
  { path: '/client/shift/closed-shift', tab: 'closed' },
  { path: '/client/shift/deleted-shift', tab: 'deleted' },
] as const;
export const CLIENT_REQUEST_PATH = '/client/shift/request';

/** Cancel on the client's own open or assigned shift, the charge said before they confirm. */
function ClientCancel() {
  const record = useRecordContext();
  const translate = useTranslate();
  const tz = useAgencyTimeZone();
  const [open, setOpen] = useState(false);
  const { canAccess } = useCanAccess({ resource: 'shifts', action: 'cancel' });
  if (!record || !canAccess || record.deleted_at || (record.status !== 'open' && record.status !== 'assigned'))
    return null;
  return (
    <>
      <Button
        label={translate('app.shifts.cancel.button')}
        // Each row's button names its shift, so a list of them reads apart ("Cancel shift of 10 Dec 2026, 08:00").
        aria-label={
          tz && record.start_at
            ? translate('app.shifts.cancel.button_of', { when: whenOf(record.start_at, tz) })
            : undefined
        }
        color="error"
        onClick={(e) => (e.stopPropagation(), setOpen(true))}
      >
        <EventBusyIcon />
      </Button>
      {open && <CancelDialog shift={record as any} onClose={() => setOpen(false)} />}
    </>
  );
}

function ListActions({ filter }: { filter: Record<string, unknown> }) {
  const { canAccess } = useCanAccess({ resource: 'shifts', action: 'create' });
  const translate = useTranslate();
  return (
    <TopToolbar>
      {canAccess && (
        <Button component={Link} to={CLIENT_REQUEST_PATH} label={translate('app.shifts.client.request')}>
          <AddIcon />
        </Button>
      )}
      {/* The printed list as the client reads it: no pay or margin (the server leaves them out). */}
      <PrintListButton resource="shifts" filter={filter} />
    </TopToolbar>
  );
}

function Empty() {
  const translate = useTranslate();
  return (
    <Box sx={{ p: 4, textAlign: 'center' }}>
      <Typography variant="h6" component="p">
        {translate('app.shifts.client.empty')}
      </Typography>
    </Box>
  );
}

const whenOf = (iso: string, tz: string) => {
  const z = instantToZoned(new Date(iso), tz);
  return `${formatDisplayDate(z.date)}, ${z.time}`;
};

/**
 * On a phone, each shift is a card with its times, site, status, staff member and charge (a cancelled shift's
 * cancellation charge), and Cancel on the card (a table would put Cancel past the screen's edge).
 */
function ShiftCards({ tab }: { tab: string }) {
  const { data } = useListContext();
  const translate = useTranslate();
  if (!data) return null;
  return (
    <Box>
      <Stack
        component="ul"
        spacing={1}
        sx={{ listStyle: 'none', p: 1, m: 0 }}
        aria-label={translate(`app.shifts.client.titles.${tab}`)}
      >
        {data.map((record) => (
          <RecordContextProvider key={record.id} value={record}>
            <Card component="li" variant="outlined">
              <CardContent sx={{ pb: 0, '& > *': { overflowWrap: 'anywhere' } }}>
                <Typography variant="subtitle2" component="p">
                  <AgencyTimeField source="start_at" /> – <AgencyTimeField source="end_at" />
                </Typography>
                <Typography variant="body2" component="p">
                  <ReferenceField source="site_id" reference="sites" link={false} emptyText={EMPTY} />
                </Typography>
                <Typography variant="body2" component="p" color="text.secondary">
                  <ShiftStatusCell /> · <ShiftCardLine />
                </Typography>
              </CardContent>
              <CardActions>
                <ClientCancel />
              </CardActions>
            </Card>
          </RecordContextProvider>
        ))}
      </Stack>
      <Pagination />
    </Box>
  );
}

/**
 * A client user's shifts, one list per state (scoped to their client on the server). Only what they may read is
 * shown: no pay or margin columns at all (the API does not send them), the charge, and Cancel where it applies.
 */
export function ClientShiftList({ tab }: { tab: (typeof CLIENT_TABS)[number]['tab'] }) {
  const translate = useTranslate();
  const decl = shiftsDecl()!;
  const filter = decl.tabs?.find((t) => t.id === tab)?.filter ?? {};
  const { canAccess: roles } = useCanAccess({ resource: 'job_roles', action: 'list' });
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <ResourceContextProvider value="shifts">
      <List
        key={tab}
        resource="shifts"
        filter={filter}
        storeKey={`client.shifts.${tab}.listParams`}
        sort={decl.defaultSort}
        perPage={25}
        title={translate(`app.shifts.client.titles.${tab}`)}
        actions={<ListActions filter={filter} />}
        empty={<Empty />}
        exporter={false}
        pagination={phone ? false : undefined}
      >
        {phone ? (
          <ShiftCards tab={tab} />
        ) : (
          <DataTable bulkActionButtons={false} rowClick={false}>
            <DataTable.Col source="start_at" label={translate('app.shifts.client.starts')}>
              <AgencyTimeField source="start_at" />
            </DataTable.Col>
            <DataTable.Col source="end_at" label={translate('app.shifts.client.ends')} disableSort>
              <AgencyTimeField source="end_at" />
            </DataTable.Col>
            <DataTable.Col source="site_id" label={translate('app.shifts.client.site')} disableSort>
              <ReferenceField source="site_id" reference="sites" link={false} emptyText={EMPTY} />
            </DataTable.Col>
            {roles && (
              <DataTable.Col source="job_role_id" label={translate('app.shifts.client.job_role')} disableSort>
                <ReferenceField source="job_role_id" reference="job_roles" link={false} emptyText={EMPTY} />
              </DataTable.Col>
            )}
            <DataTable.Col source="candidate_name" label={translate('app.shifts.client.staff')} disableSort />
            <DataTable.Col source="status" label={translate('app.shifts.client.status')}>
              <ShiftStatusCell />
            </DataTable.Col>
            <DataTable.Col source="hours" label={translate('app.shifts.client.hours')} disableSort />
            {/* On the cancelled tab the charge is the cancellation's (ShiftAmountCell), and says so. */}
            <DataTable.Col
              source="charge"
              label={translate(
                tab === 'deleted' ? 'app.shifts.client.cancellation_charge' : 'app.shifts.client.charge',
              )}
              disableSort
            >
              <ShiftAmountCell source="charge" />
            </DataTable.Col>
            {(tab === 'open' || tab === 'assigned') && (
              <DataTable.Col label={translate('app.shifts.client.actions')} disableSort>
                <ClientCancel />
              </DataTable.Col>
            )}
          </DataTable>
        )}
      </List>
    </ResourceContextProvider>
  );
}

/** "Request a shift": the create form for the client's own sites; the request arrives as an open shift. */
export function ClientShiftRequest() {
  const { data: identity } = useGetIdentity();
  return (
    <ResourceContextProvider value="shifts">
      <ShiftCreateForm panel="client" clientId={(identity as any)?.clientId ?? null} done="/client/shift/open-shift" />
    </ResourceContextProvider>
  );
}
