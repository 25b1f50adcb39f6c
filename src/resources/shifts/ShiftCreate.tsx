import { useEffect } from 'react';
import { Box, Button as MuiButton, Card, CardContent, Chip, FormHelperText, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DateRangeIcon from '@mui/icons-material/DateRange';
import {
  AutocompleteInput,
  Form,
  NumberInput,
  ReferenceInput,
  SaveButton,
  TextInput,
  Title,
  useCanAccess,
  useGetOne,
  useNotify,
  useRedirect,
  useTranslate,
  ValidationError,
} from 'react-admin';
import { useFormContext, useFormState, useWatch } from 'react-hook-form';
import { api } from '../../providers/http';
import { PickerInput } from '../../engine/react/DatePickerInput';
import { AFTER_SAVE, UnsavedChangesGuard } from '../../engine/react/UnsavedChanges';
import { agencyToday, isPlainDate } from '../../../core/domain/time/agencyTime';
import { addDates, removeDate, weekFrom } from './calendarTime';
import { QuotePanel } from './QuotePanel';
import { useAgencyTimeZone } from './shared';

export interface ShiftRequestValues {
  client_id?: number | null;
  site_id?: number | null;
  job_role_id?: number | null;
  template_id?: number | null;
  start_time?: string;
  end_time?: string;
  break_minutes?: number | null;
  dates: string[];
  date_to_add?: string | null;
  staff_needed?: number | null;
  notes?: string;
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
/** How many staff one request may ask for on each date. */
export const MAX_STAFF_NEEDED = 50;

/**
 * The form's own checks, in the user's words (the server checks the same and more). The date being picked is
 * checked too, as typed: it is not a date (2026-02-30), or, for a client, it has passed (`today`, the agency's).
 * Field validators would not run beside these: react-hook-form ignores them when the form has its own.
 */
export function validateShiftRequest(
  v: ShiftRequestValues,
  panel: 'agency' | 'client',
  today?: string,
): Record<string, string> {
  const errors: Record<string, string> = {};
  const picked = v.date_to_add;
  if (picked != null && picked !== '') {
    if (!isPlainDate(picked)) errors.date_to_add = 'engine.validation.date';
    else if (panel === 'client' && today && picked < today) errors.date_to_add = 'app.shifts.create.errors.past_date';
  }
  if (panel === 'agency' && !v.client_id) errors.client_id = 'app.shifts.create.errors.client';
  if (!v.site_id) errors.site_id = 'app.shifts.create.errors.site';
  if (!v.job_role_id) errors.job_role_id = 'app.shifts.create.errors.job_role';
  if (!v.dates?.length) errors.dates = 'app.shifts.create.errors.dates';
  if (!v.template_id || v.start_time || v.end_time) {
    if (!TIME.test(v.start_time ?? '')) errors.start_time = 'app.shifts.create.errors.time';
    if (!TIME.test(v.end_time ?? '')) errors.end_time = 'app.shifts.create.errors.time';
    else if (v.start_time === v.end_time) errors.end_time = 'app.shifts.create.errors.same_time';
  }
  const b = v.break_minutes;
  if (b != null && (!Number.isInteger(Number(b)) || Number(b) < 0 || Number(b) > 240))
    errors.break_minutes = 'app.shifts.create.errors.break';
  const n = Number(v.staff_needed);
  if (!Number.isInteger(n) || n < 1 || n > MAX_STAFF_NEEDED)
    errors.staff_needed = 'app.shifts.create.errors.staff_needed';
  return errors;
}

/** What POST /api/shifts/bulk receives: the times typed (the template is kept as where they came from). */
export function bulkBody(v: ShiftRequestValues, clientId?: number | null) {
  return {
    client_id: Number(v.client_id ?? clientId),
    site_id: Number(v.site_id),
    job_role_id: Number(v.job_role_id),
    ...(v.template_id ? { template_id: Number(v.template_id) } : {}),
    start_time: v.start_time,
    end_time: v.end_time,
    break_minutes: v.break_minutes == null || String(v.break_minutes) === '' ? 0 : Number(v.break_minutes),
    dates: v.dates,
    staff_needed: Number(v.staff_needed),
    notes: v.notes?.trim() || null,
  };
}

/** How many shifts a bulk answer says were created: { count }, { created }, or the created records. */
export function createdCount(answer: any): number {
  if (typeof answer?.count === 'number') return answer.count;
  if (typeof answer?.created === 'number') return answer.created;
  if (Array.isArray(answer?.data)) return answer.data.length;
  if (Array.isArray(answer)) return answer.length;
  return 0;
}

/** Today on the agency's calendar (the browser's until the agency's time zone is known). */
function useToday() {
  const tz = useAgencyTimeZone();
  return tz ? agencyToday(tz) : new Date().toISOString().slice(0, 10);
}

/** The dates of the request: a picker, "Add date", "Week from this date", and the chosen dates as removable chips. */
function DatesInput({ panel, today }: { panel: 'agency' | 'client'; today: string }) {
  const translate = useTranslate();
  const { setValue, clearErrors } = useFormContext<ShiftRequestValues>();
  const { errors } = useFormState({ name: 'dates' });
  const dates = useWatch<ShiftRequestValues, 'dates'>({ name: 'dates' }) ?? [];
  const picked = useWatch<ShiftRequestValues, 'date_to_add'>({ name: 'date_to_add' });
  // A client's past date is refused next to the picker as soon as it is typed (the picker's lower limit is today,
  // so the form's validator is asked at once); it cannot be added.
  const valid = isPlainDate(picked) && !(panel === 'client' && picked < today);
  const set = (next: string[]) => {
    setValue('dates', next, { shouldDirty: true });
    if (next.length) clearErrors('dates');
  };
  // react-admin keeps a validator's message as { message, args }; ValidationError translates either form.
  const error = (errors as any)?.dates?.message as string | { message: string; args?: any } | undefined;
  return (
    <Box
      component="fieldset"
      sx={{ border: 0, p: 0, m: 0, mb: 1, width: '100%' }}
      aria-describedby={error ? 'shift-dates-error' : undefined}
    >
      <Typography component="legend" variant="subtitle2">
        {translate('app.shifts.create.dates')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <Box sx={{ minWidth: 220 }}>
          <PickerInput
            source="date_to_add"
            label="app.shifts.create.date"
            helperText={false}
            limits={panel === 'client' ? { min: today } : undefined}
          />
        </Box>
        <MuiButton
          variant="outlined"
          startIcon={<AddIcon />}
          disabled={!valid}
          onClick={() => set(addDates(dates, [picked!]))}
        >
          {translate('app.shifts.create.add_date')}
        </MuiButton>
        <MuiButton
          variant="outlined"
          startIcon={<DateRangeIcon />}
          disabled={!valid}
          onClick={() => set(addDates(dates, weekFrom(picked!)))}
        >
          {translate('app.shifts.create.add_week')}
        </MuiButton>
      </Stack>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }} aria-live="polite" data-testid="chosen-dates">
        {dates.length === 0 && (
          <Typography color="text.secondary">{translate('app.shifts.create.no_dates')}</Typography>
        )}
        {dates.map((d) => (
          <Chip key={d} label={d} onDelete={() => set(removeDate(dates, d))} />
        ))}
        {dates.length > 0 && (
          <Typography sx={{ alignSelf: 'center' }} color="text.secondary">
            {translate('app.shifts.create.date_count', { smart_count: dates.length })}
          </Typography>
        )}
      </Box>
      {error && (
        <FormHelperText error id="shift-dates-error" role="alert">
          <ValidationError error={error as any} />
        </FormHelperText>
      )}
    </Box>
  );
}

/** Choosing a template fills in its times and break; they can still be changed. Changing the client clears the site. */
function Dependents({ panel }: { panel: 'agency' | 'client' }) {
  const { setValue, getValues } = useFormContext<ShiftRequestValues>();
  const templateId = useWatch<ShiftRequestValues, 'template_id'>({ name: 'template_id' });
  const clientId = useWatch<ShiftRequestValues, 'client_id'>({ name: 'client_id' });
  const { data: template } = useGetOne('shift_templates', { id: templateId! }, { enabled: !!templateId });
  useEffect(() => {
    if (!template) return;
    const time = (t: unknown) => (typeof t === 'string' ? t.slice(0, 5) : '');
    setValue('start_time', time(template.start_time), { shouldDirty: true });
    setValue('end_time', time(template.end_time), { shouldDirty: true });
    setValue('break_minutes', template.break_minutes ?? 0, { shouldDirty: true });
  }, [template, setValue]);
  useEffect(() => {
    if (panel === 'agency' && getValues('site_id')) setValue('site_id', null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [clientId]);
  return null;
}

function LiveQuote({ panel, clientId }: { panel: 'agency' | 'client'; clientId?: number | null }) {
  const tz = useAgencyTimeZone();
  const v = useWatch<ShiftRequestValues>() as ShiftRequestValues;
  return (
    <QuotePanel
      tz={tz}
      panel={panel}
      request={{
        client_id: v.client_id ?? clientId,
        site_id: v.site_id,
        job_role_id: v.job_role_id,
        dates: v.dates ?? [],
        start_time: v.start_time,
        end_time: v.end_time,
        break_minutes: v.break_minutes,
        staff_needed: v.staff_needed,
      }}
    />
  );
}

/** The job roles in use; client users read them too, without their pay rates (the API leaves those out). */
function JobRoleInput() {
  return (
    <ReferenceInput
      source="job_role_id"
      reference="job_roles"
      sort={{ field: 'name', order: 'ASC' }}
      filter={{ active: true }}
    >
      <AutocompleteInput
        label="app.shifts.create.job_role"
        filterToQuery={(q: string) => (q ? { q } : {})}
        helperText={false}
        sx={{ minWidth: 280 }}
      />
    </ReferenceInput>
  );
}

function SiteInput({ panel }: { panel: 'agency' | 'client' }) {
  const clientId = useWatch<ShiftRequestValues, 'client_id'>({ name: 'client_id' });
  return (
    <ReferenceInput
      source="site_id"
      reference="sites"
      sort={{ field: 'name', order: 'ASC' }}
      filter={panel === 'agency' ? { client_id: clientId ?? -1 } : {}}
    >
      <AutocompleteInput
        label="app.shifts.create.site"
        filterToQuery={(q: string) => (q ? { q } : {})}
        disabled={panel === 'agency' && !clientId}
        helperText={false}
        sx={{ minWidth: 280 }}
      />
    </ReferenceInput>
  );
}

/**
 * Creating shifts: one, or many at once (dates × number of staff needed) for a client, a site and a job role,
 * with a template's times or typed ones. The live quote prices it before saving; POST /api/shifts/bulk saves it
 * all or nothing, and the answer says how many shifts were created. The client panel's "Request a shift" is the
 * same form for their own client (no client to choose; the server fixes it).
 */
export function ShiftCreateForm({
  panel,
  clientId,
  done,
}: {
  panel: 'agency' | 'client';
  clientId?: number | null;
  done: string;
}) {
  const notify = useNotify();
  const redirect = useRedirect();
  const today = useToday();
  const { canAccess: canUseTemplates } = useCanAccess({ resource: 'shift_templates', action: 'list' });
  const submit = async (values: Record<string, any>) => {
    const v = values as ShiftRequestValues;
    const problems = validateShiftRequest(v, panel, today);
    if (Object.keys(problems).length) return problems;
    try {
      const answer = await api('/shifts/bulk', { method: 'POST', json: bulkBody(v, clientId) });
      const n = createdCount(answer);
      notify('app.shifts.create.created', { type: 'success', messageArgs: { smart_count: n } });
      redirect(done, undefined, undefined, undefined, AFTER_SAVE);
      return undefined;
    } catch (e: any) {
      const errors: Record<string, string> | undefined = e?.body?.errors;
      // The list of dates shows one message (`dates`); the server also names each date it refused (`dates[k]`).
      const shown = Object.fromEntries(Object.entries(errors ?? {}).filter(([k]) => !/^dates\[\d+\]$/.test(k)));
      if (Object.keys(shown).length) return shown;
      notify(e?.message || 'ra.notification.http_error', { type: 'error', messageArgs: { _: e?.message } });
      return undefined;
    }
  };
  return (
    <Card sx={{ mt: 1 }}>
      <Title title={panel === 'agency' ? 'app.shifts.create.title' : 'app.shifts.create.request_title'} />
      <CardContent>
        <Form
          noValidate
          defaultValues={{ dates: [], staff_needed: 1, break_minutes: 0, start_time: '', end_time: '', notes: '' }}
          validate={(values: Record<string, any>) => {
            const e = validateShiftRequest(values as ShiftRequestValues, panel, today);
            return Object.fromEntries(Object.entries(e).map(([k, m]) => [k, { message: m, args: {} }]));
          }}
          onSubmit={submit}
        >
          <UnsavedChangesGuard />
          <Dependents panel={panel} />
          <Stack spacing={0} sx={{ maxWidth: 900 }}>
            {panel === 'agency' && (
              <ReferenceInput source="client_id" reference="clients" sort={{ field: 'name', order: 'ASC' }}>
                <AutocompleteInput
                  label="app.shifts.create.client"
                  filterToQuery={(q: string) => (q ? { q } : {})}
                  helperText={false}
                  sx={{ minWidth: 280 }}
                />
              </ReferenceInput>
            )}
            <SiteInput panel={panel} />
            <JobRoleInput />
            {canUseTemplates && (
              <ReferenceInput source="template_id" reference="shift_templates" sort={{ field: 'name', order: 'ASC' }}>
                <AutocompleteInput
                  label="app.shifts.create.template"
                  filterToQuery={(q: string) => (q ? { q } : {})}
                  helperText="app.shifts.create.template_hint"
                  sx={{ minWidth: 280 }}
                />
              </ReferenceInput>
            )}
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              {/* The product's own 24-hour picker (HH:mm), never the browser's, which follows the machine's 12-hour
                  clock. */}
              <PickerInput source="start_time" label="app.shifts.create.start_time" timeOnly helperText={false} />
              <PickerInput
                source="end_time"
                label="app.shifts.create.end_time"
                timeOnly
                helperText="app.shifts.create.end_hint"
              />
              <NumberInput
                source="break_minutes"
                label="app.shifts.create.break_minutes"
                min={0}
                max={240}
                step={5}
                helperText={false}
              />
            </Stack>
            <DatesInput panel={panel} today={today} />
            <NumberInput
              source="staff_needed"
              label="app.shifts.create.staff_needed"
              min={1}
              max={MAX_STAFF_NEEDED}
              step={1}
              helperText="app.shifts.create.staff_needed_hint"
            />
            <TextInput
              source="notes"
              label="app.shifts.create.notes"
              multiline
              minRows={2}
              fullWidth
              helperText={false}
            />
            <LiveQuote panel={panel} clientId={clientId} />
            <Box>
              <SaveButton
                label={panel === 'agency' ? 'app.shifts.create.submit' : 'app.shifts.create.request_submit'}
                alwaysEnable
              />
            </Box>
          </Stack>
        </Form>
      </CardContent>
    </Card>
  );
}
