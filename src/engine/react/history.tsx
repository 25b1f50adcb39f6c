import { Fragment, useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { useWatch } from 'react-hook-form';
import { Box, Chip, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { format } from 'date-fns';
import {
  Form,
  ListBase,
  Pagination,
  useCanAccess,
  useGetList,
  useGetManyAggregate,
  useListContext,
  useTranslate,
  type Identifier,
} from 'react-admin';
import type { FieldDeclaration } from '../../../core/engine/types';
import { declarationByName } from '../../../core/resources/declarations';
import { humanise, readableInstant, readableValue } from './historyText';
import { representRecord } from './exporter';
import { PickerInput } from './DatePickerInput';
import { isPlainDate } from '../../../core/domain/time/agencyTime';
import { visuallyHidden } from '../../theme';

/**
 * Whose history: one record (resource + id), or a subject with everything filed under it (a staff member and their
 * documents).
 */
export interface HistoryTarget {
  resource: string;
  id: Identifier;
  /** Also list the entries of child records filed under this record (subject_resource / subject_id). */
  subject?: boolean;
}

const scopeFilter = (t: HistoryTarget) =>
  t.subject ? { subject_resource: t.resource, subject_id: t.id } : { resource: t.resource, record_id: t.id };

/**
 * The audit trail of a record, newest first, paginated, filterable by person and date; shown to those who may list it.
 */
export function HistoryPanel({ target, title = true }: { target: HistoryTarget; title?: boolean }) {
  const { canAccess } = useCanAccess({ resource: 'audit_entries', action: 'list' });
  if (!canAccess) return null;
  return (
    <ListBase
      resource="audit_entries"
      filter={scopeFilter(target)}
      sort={{ field: 'created_at', order: 'DESC' }}
      perPage={10}
      disableSyncWithLocation
      storeKey={false}
    >
      <HistoryBody target={target} title={title} />
    </ListBase>
  );
}

/** One date-time in the reader's words. */
const when = (iso: string) => (iso ? readableInstant(iso) : '');

// A day chosen in the filter covers the whole of that day, in the reader's own time zone.
const dayStart = (d: string) => (d ? new Date(`${d}T00:00:00`).toISOString() : undefined);
const dayEnd = (d: string) => (d ? new Date(`${d}T23:59:59.999`).toISOString() : undefined);
const dayOf = (iso?: string) => (iso ? format(new Date(iso), 'yyyy-MM-dd') : '');

function HistoryFilters({ target }: { target: HistoryTarget }) {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListContext();
  // The people who appear in this history (its latest 100 entries): the choices of the person filter.
  const { data: recent } = useGetList('audit_entries', {
    filter: scopeFilter(target),
    sort: { field: 'created_at', order: 'DESC' },
    pagination: { page: 1, perPage: 100 },
  });
  const people = useMemo(() => {
    const seen = new Map<string, string>();
    for (const e of recent ?? [])
      if (e.user_id != null && !seen.has(String(e.user_id)))
        seen.set(String(e.user_id), e.user_name ?? `#${e.user_id}`);
    return [...seen.entries()];
  }, [recent]);
  const set = (key: string, value: string | undefined) =>
    setFilters({ ...filterValues, [key]: value || undefined }, {});
  return (
    <Stack direction="row" spacing={2} sx={{ mb: 2, flexWrap: 'wrap' }} useFlexGap>
      <TextField
        select
        size="small"
        sx={{ minWidth: 200 }}
        label={translate('app.history.person')}
        value={filterValues.user_id ?? ''}
        onChange={(e) => set('user_id', e.target.value)}
      >
        <MenuItem value="">{translate('app.history.everyone')}</MenuItem>
        {people.map(([id, name]) => (
          <MenuItem key={id} value={id}>
            {name}
          </MenuItem>
        ))}
      </TextField>
      <HistoryDates />
    </Stack>
  );
}

/**
 * The From and To days, on the product's own date picker (yyyy-MM-dd), in a form of their own that is never submitted.
 */
function HistoryDates() {
  const { filterValues } = useListContext();
  // The days the list opened with, once: a new record would reset the form under the user's typing.
  const [initial] = useState(() => ({
    from: dayOf(filterValues.created_at_gte) || null,
    to: dayOf(filterValues.created_at_lte) || null,
  }));
  return (
    <Form record={initial}>
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Box sx={{ width: 190 }}>
          <PickerInput source="from" label="app.history.from" helperText={false} />
        </Box>
        <Box sx={{ width: 190 }}>
          <PickerInput source="to" label="app.history.to" helperText={false} />
        </Box>
      </Stack>
      <ApplyHistoryDates />
    </Form>
  );
}

/**
 * A whole day typed or picked filters the history at once; a day still being typed (or impossible) leaves it as it is.
 */
function ApplyHistoryDates() {
  const { filterValues, setFilters } = useListContext();
  const [from, to] = useWatch({ name: ['from', 'to'] }) as [unknown, unknown];
  useEffect(() => {
    const day = (v: unknown, edge: (d: string) => string | undefined, current: string | undefined) =>
      v == null || v === '' ? undefined : isPlainDate(v) ? edge(v) : current;
    const gte = day(from, dayStart, filterValues.created_at_gte);
    const lte = day(to, dayEnd, filterValues.created_at_lte);
    if (gte !== filterValues.created_at_gte || lte !== filterValues.created_at_lte)
      setFilters({ ...filterValues, created_at_gte: gte, created_at_lte: lte }, {});
  }, [from, to, filterValues, setFilters]);
  return null;
}

function HistoryBody({ target, title }: { target: HistoryTarget; title: boolean }) {
  const translate = useTranslate();
  const headingId = useId();
  const { data, isPending, total } = useListContext();
  return (
    // Long old and new values (an address, a note) wrap rather than widening a phone's page.
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 2, overflowWrap: 'anywhere' }}>
      <Typography id={headingId} variant="h6" component="h2" gutterBottom sx={title ? undefined : visuallyHidden}>
        {translate('app.history.title')}
      </Typography>
      <HistoryFilters target={target} />
      {!isPending && !data?.length && <Typography color="text.secondary">{translate('app.history.empty')}</Typography>}
      <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label={translate('app.history.title')}>
        {(data ?? []).map((e) => (
          <HistoryEntry key={e.id} entry={e} showType={e.resource !== target.resource} />
        ))}
      </Box>
      {!!total && total > 10 && <Pagination rowsPerPageOptions={[10]} />}
    </Box>
  );
}

/** Referenced records by name (batched across the page's entries); a record that no longer answers keeps its number. */
function ReferenceNames({ reference, ids }: { reference: string; ids: Identifier[] }) {
  const decl = declarationByName.get(reference);
  const { data } = useGetManyAggregate(reference, { ids });
  const byId = new Map((data ?? []).filter(Boolean).map((r) => [String(r.id), r]));
  return (
    <>
      {ids
        .map((id) => (byId.has(String(id)) ? representRecord(decl, byId.get(String(id))!) || `#${id}` : `#${id}`))
        .join(', ')}
    </>
  );
}

/** A stored value in the reader's words (historyText), references by their records' names. */
function useShowValue() {
  const translate = useTranslate();
  return (resource: string, field: FieldDeclaration | undefined, v: unknown): ReactNode => {
    const ids = Array.isArray(v) ? v : [v];
    if (
      (field?.type === 'reference' || field?.type === 'references') &&
      field.reference &&
      v !== null &&
      v !== undefined &&
      v !== '' &&
      ids.length
    )
      return <ReferenceNames reference={field.reference} ids={ids as Identifier[]} />;
    return readableValue(field, v, {
      yes: translate('ra.boolean.true'),
      no: translate('ra.boolean.false'),
      file: translate('app.history.file'),
      image: translate('app.history.image'),
      choice: (f, id) => {
        const c = f.choices?.find((x) => x.id === id);
        return c ? translate(`resources.${resource}.choices.${f.source}.${c.id}`, { _: c.name }) : undefined;
      },
    });
  };
}

function HistoryEntry({ entry, showType }: { entry: Record<string, any>; showType: boolean }) {
  const translate = useTranslate();
  const showValue = useShowValue();
  const decl = declarationByName.get(entry.resource);
  const fieldOf = (source: string) => decl?.fields.find((f) => f.source === source);
  const action = entry.action ? decl?.actions?.find((a) => a.name === entry.action) : undefined;
  const what =
    entry.event === 'action'
      ? translate(`resources.${entry.resource}.actions.${entry.action}.label`, { _: action?.label ?? entry.action })
      : translate(`app.history.events.${entry.event}`, { _: entry.event });
  const changes = Object.entries((entry.changes ?? {}) as Record<string, { from: unknown; to: unknown }>);
  const input = Object.entries((entry.input ?? {}) as Record<string, unknown>).filter(
    ([, v]) => v !== null && v !== undefined && v !== '',
  );
  const typeName = translate(`resources.${entry.resource}.name`, {
    smart_count: 1,
    _: decl?.label.one ?? entry.resource,
  });
  return (
    <Box component="li" sx={{ py: 1.5, borderBottom: 1, borderColor: 'divider' }} data-entry={entry.id}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
        <Typography component="span" variant="body2" color="text.secondary">
          {when(entry.created_at)}
        </Typography>
        <Typography component="span" variant="body2">
          {entry.user_name ?? translate('app.history.system')}
        </Typography>
        <Chip
          size="small"
          label={what}
          color={entry.event === 'delete' ? 'error' : entry.event === 'action' ? 'primary' : 'default'}
        />
        {showType && (
          <Typography component="span" variant="body2" color="text.secondary">
            {typeName} #{entry.record_id}
          </Typography>
        )}
      </Stack>
      {(changes.length > 0 || input.length > 0) && (
        <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 3 }}>
          {changes.map(([source, c]) => {
            // Custom fields are filed as custom_fields.<key>: their key is their name here.
            const label = source.startsWith('custom_fields.')
              ? source.slice('custom_fields.'.length)
              : translate(`resources.${entry.resource}.fields.${source}`, {
                  _: fieldOf(source)?.label ?? humanise(source),
                });
            const f = fieldOf(source);
            // A create shows what the record was given, a delete what it held.
            return (
              <Typography component="li" variant="body2" key={source}>
                <strong>{label}</strong>:{' '}
                {entry.event === 'create'
                  ? showValue(entry.resource, f, c?.to)
                  : entry.event === 'delete'
                    ? showValue(entry.resource, f, c?.from)
                    : // Elements, not a template string: a reference is named by a component ("[object Object]").
                      [showValue(entry.resource, f, c?.from), ' → ', showValue(entry.resource, f, c?.to)].map(
                        (v, i) => <Fragment key={i}>{v}</Fragment>,
                      )}
              </Typography>
            );
          })}
          {input.map(([k, v]) => (
            <Typography component="li" variant="body2" key={`input-${k}`}>
              <strong>
                {translate(`resources.${entry.resource}.actions.${entry.action}.fields.${k}`, {
                  _: translate(`app.history.input.${k}`, { _: humanise(k) }),
                })}
              </strong>
              :{' '}
              {showValue(
                entry.resource,
                action?.input?.find((f) => f.source === k),
                v,
              )}
            </Typography>
          ))}
        </Box>
      )}
    </Box>
  );
}
