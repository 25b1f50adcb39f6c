import { AFTER_SAVE, UnsavedChangesGuard } from './UnsavedChanges';
import { Fragment, createContext, useContext, useEffect, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { Alert, Box, Tab, Tabs, Typography, useMediaQuery, type Theme } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { Link, useLocation, useNavigate } from 'react-router';
import {
  BulkDeleteButton, BulkExportButton, CreateButton, Create, DataTable, DeleteButton, Edit, EditButton, FilterButton,
  List, SearchInput, SelectInput, NullableBooleanInput, ReferenceInput, AutocompleteInput, Show, SimpleForm, SimpleShowLayout,
  TopToolbar, useCanAccess, useTranslate, Toolbar, SaveButton, Button, useEditContext, useRecordContext, useNotify, useSaveContext,
  ColumnsButton, DataTableBody, DataTableRow, SimpleList, useDataTableCallbacksContext, useListContext, useRedirect, type DataTableRowProps, type RaRecord,
} from 'react-admin';
import { useFormContext } from 'react-hook-form';
import type { FieldDeclaration, ListTab, ResourceDeclaration } from '../types';
import type React from 'react';
import { hasView } from '../types';
import { formatDate } from '../dates';
import { validateRecord, type CustomFieldDefinition, type Problems } from '../validate';
import { customFieldAsDeclaration, getPath } from '../validate';
import { FieldFor } from './fields';
import { InputFor, referenceSort } from './inputs';
import { UploadFailure, uploadFile } from './files';
import { ApiFailure } from '../../providers/request';
import { fileKindOf } from '../files';
import { PickerInput } from './DatePickerInput';
import { CustomFieldInputs, useCustomFields } from './customFields';
import { buildExporter } from './exporter';
import { ExcelListButton, ExportListButton, PrintListButton } from './download';
import { PRINTABLE_LISTS } from '../exportFormat';
import { declarations } from '../../resources/declarations';
import type { ResourcePaths } from './paths';
import { BulkActions, RecordActions } from './actions';
import { HistoryPanel } from './history';

/** Single-field escape hatches: replace how one field is shown, typed or listed, keep the rest generated. */
export interface FieldOverride {
  field?: ReactElement;
  input?: ReactElement;
  column?: ReactElement;
}
export interface ViewOptions {
  decl: ResourceDeclaration;
  paths: ResourcePaths;
  fieldOverrides?: Record<string, FieldOverride>;
  /** Extra buttons next to the declared bulk actions and Bulk delete/export. */
  bulkActions?: ReactElement;
  /** Extra buttons in the show view's toolbar. */
  showActions?: ReactElement;
}

/** Problems → the nested `{ field: { message, args } }` shape react-admin's form resolver expects. */
export function toFormErrors(problems: Problems): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [path, p] of Object.entries(problems)) {
    const keys = path.split('.');
    let node = out;
    keys.slice(0, -1).forEach((k) => (node = node[k] ??= {}));
    node[keys[keys.length - 1]] = { message: p.message, args: p.args ?? {} };
  }
  return out;
}

/**
 * The form's own checks: the fields it offers an input for. What the server fills or changes only through actions
 * (a new document's check status) is not in a create form's values, and an error there would block the save with
 * nothing on screen; the server checks those itself.
 */
export const formValidator = (decl: ResourceDeclaration, defs: CustomFieldDefinition[]) => {
  const writable = { ...decl, fields: decl.fields.filter((f) => !f.readOnly && !f.actionOnly && !f.computed) };
  return (values: Record<string, any>) => toFormErrors(onAddressParts(decl, values, validateRecord(writable, values, defs)));
};

/**
 * An address's problems belong to its parts, where the form shows them: a missing first line or postcode on that
 * input, a malformed postcode on the postcode. Other problems stay on the address as a whole.
 */
export function onAddressParts(decl: ResourceDeclaration, values: Record<string, any>, problems: Problems): Problems {
  const out = { ...problems };
  for (const f of decl.fields.filter((x) => x.type === 'address' && out[x.source])) {
    const p = out[f.source];
    const a = getPath(values, f.source) ?? {};
    const blank = (k: string) => typeof a[k] !== 'string' || a[k].trim() === '';
    if (p.message === 'engine.validation.addressRequired') {
      delete out[f.source];
      for (const k of ['line1', 'postcode']) if (blank(k)) out[`${f.source}.${k}`] = { message: 'ra.validation.required' };
    } else if (p.message === 'engine.validation.postcode') {
      delete out[f.source];
      out[`${f.source}.postcode`] = p;
    } else if (typeof p.args?.part === 'string') {
      delete out[f.source];
      out[`${f.source}.${p.args.part}`] = p;
    }
  }
  return out;
}

/**
 * A newly chosen file is uploaded to the file store before the record is sent, and the record carries its id;
 * an untouched one keeps its id. A refused upload rejects with an UploadFailure naming the field.
 */
export const transformUploads = (decl: ResourceDeclaration) => async (data: Record<string, any>) => {
  const out = { ...data };
  for (const f of decl.fields) {
    // The form starts an address in the United Kingdom; with nothing else filled in, there is no address.
    if (f.type === 'address') {
      const a = out[f.source];
      if (a && typeof a === 'object' && !['line1', 'line2', 'city', 'postcode'].some((k) => typeof a[k] === 'string' && a[k].trim())) out[f.source] = null;
      continue;
    }
    if (f.type !== 'image' && f.type !== 'file') continue;
    const v = out[f.source];
    if (!v || typeof v !== 'object') continue;
    if (!(v.rawFile instanceof File)) {
      out[f.source] = v.src ?? null;
      continue;
    }
    try {
      out[f.source] = (await uploadFile(v.rawFile, fileKindOf(f.type))).id;
    } catch (e) {
      throw e instanceof ApiFailure ? new UploadFailure(e.message, f.source, e.status) : e;
    }
  }
  return out;
};

function filterInputs(decl: ResourceDeclaration): ReactElement[] {
  const inputs: ReactElement[] = [];
  if (decl.search?.length) inputs.push(<SearchInput key="q" source="q" alwaysOn />);
  for (const f of decl.fields.filter((x) => x.filter)) {
    // Filters are as wide as their longest option name (at least 200 px), never cut.
    if (f.type === 'choice') inputs.push(<SelectInput key={f.source} source={f.source} label={f.label} choices={f.choices ?? []} sx={{ minWidth: 200 }} />);
    else if (f.type === 'boolean') inputs.push(<NullableBooleanInput key={f.source} source={f.source} label={f.label} />);
    else if (f.type === 'reference')
      inputs.push(
        <ReferenceInput key={f.source} source={f.source} reference={f.reference!} sort={referenceSort(f.reference!)}>
          <AutocompleteInput label={f.label} filterToQuery={(q: string) => (q ? { q } : {})} sx={{ minWidth: 240 }} />
        </ReferenceInput>,
      );
    else if (f.type === 'date' || f.type === 'datetime') {
      inputs.push(<PickerInput key={`${f.source}_gte`} source={`${f.source}_gte`} label={`${f.label} from`} />);
      inputs.push(<PickerInput key={`${f.source}_lte`} source={`${f.source}_lte`} label={`${f.label} to`} />);
    } else inputs.push(<InputFor key={f.source} of={f} source={f.source} />);
  }
  return inputs;
}

function ListTabs({ decl, paths, current }: { decl: ResourceDeclaration; paths: ResourcePaths; current?: ListTab }) {
  const translate = useTranslate();
  if (!decl.tabs?.length) return null;
  return (
    <Tabs
      value={current?.id ?? decl.tabs[0].id}
      aria-label={translate(`resources.${decl.name}.name`, { smart_count: 2 })}
      variant="scrollable"
      // The tabs scroll within the page's width: without this their full width counts towards the layout's
      // fit-content width, and a phone's page scrolls sideways.
      sx={{ contain: 'inline-size' }}
    >
      {decl.tabs.map((t) => (
        <Tab key={t.id} value={t.id} label={translate(`resources.${decl.name}.tabs.${t.id}`, { _: t.label })} component={Link} to={paths.tab(t.id)} />
      ))}
    </Tabs>
  );
}

/** More list columns than this, and the user chooses which to show (remembered in react-admin's store). */
export const COLUMN_CHOICE_FROM = 6;

/** The name of a row: the first field of the declaration's recordRepresentation ('%{first_name} %{last_name}'). */
export const nameField = (decl: ResourceDeclaration) => /%\{(\w+)\}/.exec(decl.recordRepresentation)?.[1];

function ListActions({ decl, columns, readOnly, filter }: { decl: ResourceDeclaration; columns: number; readOnly?: boolean; filter?: Record<string, unknown> }) {
  const { canAccess: canList } = useCanAccess({ resource: decl.name, action: 'list' });
  const { canAccess: canExport } = useCanAccess({ resource: decl.name, action: 'export' });
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  return (
    <TopToolbar sx={{ flexWrap: 'wrap' }}>
      {decl.fields.some((f) => f.filter) && <FilterButton />}
      {columns > COLUMN_CHOICE_FROM && !phone && <ColumnsButton />}
      {!readOnly && <CreateButton />}
      {/* The server writes the files from the whole list (GET /api/{name}/export, /print), with the list's filters. */}
      {canExport && <ExportListButton resource={decl.name} filter={filter} />}
      {canExport && <ExcelListButton resource={decl.name} filter={filter} />}
      {canList && PRINTABLE_LISTS.includes(decl.name) && <PrintListButton resource={decl.name} filter={filter} />}
    </TopToolbar>
  );
}

function EmptyList({ decl, paths, tab, readOnly }: { decl: ResourceDeclaration; paths: ResourcePaths; tab?: ListTab; readOnly?: boolean }) {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: decl.name, action: 'create' });
  const name = translate(`resources.${decl.name}.name`, { smart_count: 2, _: decl.label.many }).toLowerCase();
  const filtered = tab && Object.keys(tab.filter).length > 0;
  return (
    <Box sx={{ p: 4, textAlign: 'center' }}>
      <Typography variant="h6" gutterBottom>
        {translate(filtered ? 'engine.list.emptyFiltered' : 'engine.list.empty', { name })}
      </Typography>
      {canAccess && !filtered && !readOnly && (
        <CreateButton variant="contained" label="engine.list.create" to={paths.create} />
      )}
    </Box>
  );
}

const SHORT_TYPES = new Set(['phone', 'number', 'money', 'boolean', 'choice', 'reference', 'date', 'datetime']);
/**
 * Columns size to their content: short values never wrap, long text stops at 280 px with an ellipsis (the full
 * text is one click away on the record).
 */
const cellSx = (f: FieldDeclaration) =>
  SHORT_TYPES.has(f.type)
    ? { whiteSpace: 'nowrap' }
    : f.type === 'references' || f.type === 'image'
      ? {}
      : { maxWidth: 280, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' };

/** The row's name as a link to the record: the keyboard's and the screen reader's way into it. */
function NameLink({ of: field, paths }: { of: FieldDeclaration; paths: ResourcePaths }) {
  const record = useRecordContext();
  if (!record) return null;
  return (
    <Link to={paths.show(record.id)} onClick={(e) => e.stopPropagation()} style={{ color: 'inherit', fontWeight: 500 }}>
      <FieldFor of={field} plain />
    </Link>
  );
}

export const listColumns = (decl: ResourceDeclaration, defs: CustomFieldDefinition[]) => [
  ...decl.fields.filter((f) => hasView(f, 'list')),
  ...defs.filter((x: any) => x.show_in_list).map(customFieldAsDeclaration),
];

function Columns({ decl, defs, paths, overrides }: { decl: ResourceDeclaration; defs: CustomFieldDefinition[]; paths: ResourcePaths; overrides?: Record<string, FieldOverride> }) {
  const name = nameField(decl);
  const custom = new Set(defs.map((d) => `custom_fields.${d.key}`));
  const cols: ReactNode[] = listColumns(decl, defs).map((f) => (
    <DataTable.Col key={f.source} source={f.source} label={f.label} disableSort={!f.sortable || custom.has(f.source)} cellSx={() => cellSx(f)}>
      {overrides?.[f.source]?.column ??
        overrides?.[f.source]?.field ??
        // References in a row are plain text: the row itself opens the record, the name is its one link.
        (f.source === name ? <NameLink of={f} paths={paths} /> : <FieldFor of={f} plain />)}
    </DataTable.Col>
  ));
  return <>{cols}</>;
}

/** Which row of the list is the one Tab stop (roving tabindex); null until the user moves, then the first row. */
const CurrentRowContext = createContext<{ current: unknown; setCurrent: (id: unknown) => void; first: unknown }>({ current: null, setCurrent: () => undefined, first: null });

/**
 * A row as a keyboard user needs it: the list is one Tab stop (the current row; the checkbox and name link inside a
 * row leave the Tab order, as the row does what they do), ↑/↓ (Home/End) move between rows, Enter opens the record
 * as a click does, Space selects it for the bulk actions instead of scrolling the page.
 */
function EngineRow(props: DataTableRowProps) {
  const record = useRecordContext(props);
  const { handleToggleItem } = useDataTableCallbacksContext();
  const { current, setCurrent, first } = useContext(CurrentRowContext);
  const ref = useRef<HTMLTableRowElement>(null);
  const id = record?.id;
  const isCurrent = (current ?? first) === id;
  useEffect(() => {
    ref.current?.querySelectorAll<HTMLElement>('input[type="checkbox"], a[href]').forEach((el) => (el.tabIndex = -1));
  });
  return (
    <DataTableRow
      {...props}
      ref={ref}
      tabIndex={isCurrent ? 0 : -1}
      className={[props.className, 'engine-row'].filter(Boolean).join(' ')}
      onFocus={(e: React.FocusEvent<HTMLTableRowElement>) => {
        if (e.target === e.currentTarget && current !== id) setCurrent(id);
      }}
      onKeyDown={(e: React.KeyboardEvent<HTMLTableRowElement>) => {
        if (e.target !== e.currentTarget) return;
        const row = e.currentTarget;
        const rows = [...(row.parentElement?.querySelectorAll<HTMLTableRowElement>(':scope > tr.engine-row') ?? [])];
        const at = rows.indexOf(row);
        const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: rows.length - 1 }[e.key];
        if (to !== undefined) {
          e.preventDefault();
          rows[Math.max(0, Math.min(rows.length - 1, to))]?.focus();
        } else if (e.key === 'Enter') {
          e.preventDefault();
          row.click();
        } else if (e.key === ' ') {
          e.preventDefault();
          if (handleToggleItem && id !== undefined) handleToggleItem(id, e as any);
        }
      }}
    />
  );
}
function EngineBody(props: any) {
  const [current, setCurrent] = useState<unknown>(null);
  const { data } = useListContext();
  const first = data?.[0]?.id ?? null;
  // A row that left the page (another page, a filter) gives the Tab stop back to the first row.
  const live = data?.some((r) => r.id === current) ? current : null;
  return (
    <CurrentRowContext.Provider value={{ current: live, setCurrent, first }}>
      <DataTableBody {...props} row={EngineRow} />
    </CurrentRowContext.Provider>
  );
}

/** A record's name as the declaration writes it: '%{first_name} %{last_name}'. */
export const representationOf = (decl: ResourceDeclaration) => (record: RaRecord | undefined) =>
  decl.recordRepresentation.replace(/%\{(\w+)\}/g, (_, k) => String(record?.[k] ?? '')).trim();

/**
 * What a one-column card of a phone's list shows: the record's name, the next one or two list fields (not part
 * of the name, not pictures or yes/no) and its status.
 */
export function simpleListParts(decl: ResourceDeclaration) {
  const inName = new Set([...decl.recordRepresentation.matchAll(/%\{(\w+)\}/g)].map((m) => m[1]));
  const status = decl.fields.find((f) => f.source === 'status' && f.type === 'choice' && hasView(f, 'list'));
  const secondary = decl.fields
    .filter((f) => hasView(f, 'list') && !inName.has(f.source) && f !== status && !['image', 'file', 'boolean', 'references', 'address'].includes(f.type))
    .slice(0, 2);
  return { primary: representationOf(decl), secondary, status };
}

/**
 * The list below the tablet breakpoint: one card a record, built from the declaration; a tap opens it. `card` replaces
 * the line under the name; the status says what the list's status column says (its override, if any).
 */
export function EngineSimpleList({ decl, paths, card, overrides }: { decl: ResourceDeclaration; paths: ResourcePaths; card?: ReactElement; overrides?: Record<string, FieldOverride> }) {
  const { primary, secondary, status } = simpleListParts(decl);
  const statusCell = status && overrides?.[status.source]?.column;
  return (
    <SimpleList
      className="engine-simple-list"
      primaryText={(r: RaRecord) => primary(r)}
      secondaryText={() => (
        <Box component="span" sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1.5 }}>
          {card ??
            secondary.map((f) => (
              <FieldFor key={f.source} of={f} plain component="span" />
            ))}
        </Box>
      )}
      tertiaryText={
        statusCell ? (
          // react-admin's own class: placed and dimmed as its status text is.
          <span className="RaSimpleList-tertiary">{statusCell}</span>
        ) : status ? (r: RaRecord) => status.choices?.find((c) => c.id === r.status)?.name ?? '' : undefined
      }
      rowClick={(id: any) => paths.show(id)}
    />
  );
}

/** The generated list: tabs, search and filters, sortable columns, server pagination, bulk delete and CSV export. */
export function EngineList({ decl, paths, fieldOverrides, bulkActions, tabId, title, readOnly, card }: ViewOptions & {
  tabId?: string;
  /** On a phone, the line under each card's name (default: the next list fields). */
  card?: ReactElement;
  /** false: the page around the list sets the title. */
  title?: false;
  /** A report: rows open their records, where changes happen; the list itself offers no create, bulk action or delete, only export. */
  readOnly?: boolean;
}) {
  const tab = decl.tabs?.find((t) => t.id === tabId) ?? decl.tabs?.[0];
  const { defs } = useCustomFields(decl);
  return (
    <Fragment>
      <ListTabs decl={decl} paths={paths} current={tab} />
      <List
        key={tab?.id ?? 'all'}
        resource={decl.name}
        title={title}
        filter={tab?.filter}
        storeKey={`${decl.name}.${tab?.id ?? 'all'}.listParams`}
        sort={decl.defaultSort}
        perPage={25}
        filters={filterInputs(decl)}
        // The bulk bar's Export of selected rows: the same columns and values as the server's file.
        exporter={buildExporter(decl, { declarations, customFields: defs })}
        actions={<ListActions decl={decl} columns={listColumns(decl, defs).length} readOnly={readOnly} filter={tab?.filter} />}
        empty={<EmptyList decl={decl} paths={paths} tab={tab} readOnly={readOnly} />}
        // A wide table scrolls inside its card; the toolbar stays in view. The table itself scrolls, not the card:
        // the bulk bar is drawn over the toolbar above the card's top edge, and a scrolling card would clip it.
        sx={{
          '& .RaList-main': { minWidth: 0 },
          // Overrides a scrolling card from the theme: it would clip the bulk bar, which is moved up over the toolbar.
          '& .RaList-content': { overflow: 'inherit' },
          '& .RaDataTable-root': { minWidth: 0 },
          '& .RaDataTable-tableWrapper': { overflowX: 'auto' },
          // Headers wrap between words: a long label ("Split shifts at each band boundary") must not widen the list.
          '& .RaDataTable-headerCell': { whiteSpace: 'normal', verticalAlign: 'bottom' },
          // With nothing selected the bulk bar is collapsed out of sight: its buttons leave the Tab order too.
          '& .RaBulkActionsToolbar-collapsed': { visibility: 'hidden' },
          // The keyboard's place in the list is plain to see.
          '& .engine-row:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: '-2px' },
        }}
      >
        <ListBody decl={decl} paths={paths} defs={defs} overrides={fieldOverrides} bulkActions={bulkActions} readOnly={readOnly} card={card} />
      </List>
    </Fragment>
  );
}

function ListBody({ decl, paths, defs, overrides, bulkActions, readOnly, card }: { decl: ResourceDeclaration; paths: ResourcePaths; defs: CustomFieldDefinition[]; overrides?: Record<string, FieldOverride>; bulkActions?: ReactElement; readOnly?: boolean; card?: ReactElement }) {
  const { canAccess: canExport } = useCanAccess({ resource: decl.name, action: 'export' });
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  // Below the tablet breakpoint a table cannot fit: one card a record (no bulk actions there).
  if (phone) return <EngineSimpleList decl={decl} paths={paths} card={card} overrides={overrides} />;
  return (
    <DataTable
      body={EngineBody}
      hiddenColumns={listColumns(decl, defs).filter((f) => f.listHidden).map((f) => f.source)}
      rowClick={(id) => paths.show(id)}
      bulkActionButtons={
        readOnly ? (
          canExport ? <BulkExportButton /> : false
        ) : (
          <>
            <BulkActions decl={decl} />
            {bulkActions}
            {canExport && <BulkExportButton />}
            <BulkDeleteButton mutationMode="pessimistic" />
          </>
        )
      }
    >
      <Columns decl={decl} defs={defs} paths={paths} overrides={overrides} />
    </DataTable>
  );
}

export function ShowFields({ decl, fieldOverrides }: { decl: ResourceDeclaration; fieldOverrides?: Record<string, FieldOverride> }) {
  const { defs } = useCustomFields(decl);
  return (
    // Long values (an address, an e-mail) wrap within a phone's width.
    <SimpleShowLayout className="engine-show-fields" sx={{ overflowWrap: 'anywhere' }}>
      {/* SimpleShowLayout labels each child from its source and label props. */}
      {decl.fields.filter((f) => hasView(f, 'show')).map((f) => fieldOverrides?.[f.source]?.field ?? <FieldFor key={f.source} of={f} source={f.source} label={f.label} />)}
      {defs.map(customFieldAsDeclaration).map((f) => <FieldFor key={f.source} of={f} source={f.source} label={f.label} />)}
    </SimpleShowLayout>
  );
}

/** The record's audit trail under its show view (shown to those who may list the audit trail). */
function RecordHistory({ decl }: { decl: ResourceDeclaration }) {
  const record = useRecordContext();
  if (!record || decl.audited === false) return null;
  return (
    <Box sx={{ px: 2, pb: 2 }}>
      <HistoryPanel target={{ resource: decl.name, id: record.id }} />
    </Box>
  );
}

/** The entity's name for messages, as the declaration (or its translation) says it: "Staff member", "Site". */
export function useEntityName(decl: ResourceDeclaration) {
  const translate = useTranslate();
  return translate(`resources.${decl.name}.name`, { smart_count: 1, _: decl.label.one });
}

/**
 * Says what was saved by its name: "Client created", "Staff member updated", "Site deleted". The words are the
 * catalogue's resources.<name>.notifications (engine/messages.ts), which react-admin's own buttons (a delete, a
 * bulk delete) read as well; an entity outside the catalogue still gets its name.
 */
export function useNamedNotice(decl: ResourceDeclaration) {
  const notify = useNotify();
  const name = useEntityName(decl);
  return (done: 'created' | 'updated') => notify(`resources.${decl.name}.notifications.${done}`, { type: 'info', messageArgs: { smart_count: 1, _: `${name} ${done}` } });
}

export function EngineShow({ decl, paths, fieldOverrides, showActions }: ViewOptions) {
  return (
    <Show
      resource={decl.name}
      actions={
        <TopToolbar>
          <RecordActions decl={decl} />
          {showActions}
          <EditButton />
          <DeleteButton mutationMode="pessimistic" redirect={paths.list} />
        </TopToolbar>
      }
    >
      <ShowFields decl={decl} fieldOverrides={fieldOverrides} />
      <RecordHistory decl={decl} />
    </Show>
  );
}

/**
 * Whether a form offers an input for a field: never for what the server fills, computes or changes only through
 * actions (the write policy would refuse it anyway).
 */
export const isFormField = (f: FieldDeclaration, view: 'edit' | 'create') => !f.readOnly && !f.actionOnly && !f.computed && hasView(f, view);

/** The inputs of a generated form; `exclude` leaves out fields the screen fixes itself (a child's parent). */
export function FormInputs({ decl, view, overrides, defs, exclude = [] }: { decl: ResourceDeclaration; view: 'edit' | 'create'; overrides?: Record<string, FieldOverride>; defs: CustomFieldDefinition[]; exclude?: string[] }) {
  return (
    <>
      {decl.fields.filter((f: FieldDeclaration) => isFormField(f, view) && !exclude.includes(f.source)).map((f) => (
        // A create-only field is shown on edit but cannot be changed.
        <Fragment key={f.source}>{overrides?.[f.source]?.input ?? <InputFor of={f} {...(view === 'edit' && f.createOnly ? { readOnly: true } : {})} />}</Fragment>
      ))}
      <CustomFieldInputs defs={defs} />
    </>
  );
}

/**
 * Stale edits: the form sends back the record's version; when someone else saved first the API answers 409 with
 * errors.version. The form then says so and offers to reload; nothing is overwritten and the user's edit stays
 * on screen until they choose to reload.
 */
const StaleContext = createContext<{ stale: boolean; setStale: (v: boolean) => void }>({ stale: false, setStale: () => {} });

export const isStaleError = (e: any) => e?.status === 409 && !!e?.body?.errors?.version;

/** The mutation options and context of an edit form that handles stale saves; wrap the form in <StaleProvider>. */
export function useStaleEdit() {
  const [stale, setStale] = useState(false);
  const notify = useNotify();
  const onError = (e: any) => {
    if (isStaleError(e)) {
      setStale(true);
      // The form would mark an invisible "version" field as wrong: say it as the form's own error instead.
      e.body.errors = { root: { serverError: 'app.edit.stale' } };
      return;
    }
    // Field errors (422) show next to the fields; anything else is said aloud, as react-admin does by default.
    if (e?.body?.errors && Object.keys(e.body.errors).length) return;
    notify(typeof e === 'string' ? e : e?.message || 'ra.notification.http_error', { type: 'error', messageArgs: { _: e?.message } });
  };
  return { stale, setStale, onError };
}

export function StaleProvider({ value, children }: { value: { stale: boolean; setStale: (v: boolean) => void }; children: ReactNode }) {
  return <StaleContext.Provider value={value}>{children}</StaleContext.Provider>;
}

/** Inside an edit form: the "changed meanwhile" message with its Reload button. */
export function StaleNotice() {
  const { stale, setStale } = useContext(StaleContext);
  const { refetch } = useEditContext();
  const { reset } = useFormContext();
  const translate = useTranslate();
  if (!stale) return null;
  const reload = async () => {
    const r = await refetch();
    // Discards the local edit: the form starts again from what is stored now, with its new version.
    if (r?.data) reset(r.data);
    setStale(false);
  };
  return (
    <Alert
      severity="warning"
      role="alert"
      sx={{ mb: 2, width: '100%' }}
      action={<Button label="app.edit.reload" onClick={reload}><RefreshIcon /></Button>}
    >
      {translate('app.edit.stale')}
    </Alert>
  );
}

/**
 * The submit of a generated form: the save of its Create/Edit, with a refused upload shown next to its field.
 * react-admin runs the transform (which uploads the files) outside its own error handling, so an UploadFailure
 * would otherwise reject the submit with nothing on screen.
 */
export function useSubmitWithUploads() {
  const { save } = useSaveContext();
  return async (values: Record<string, any>) => {
    try {
      return await save!(values);
    } catch (e) {
      if (e instanceof UploadFailure) return { [e.field]: e.message };
      throw e;
    }
  };
}

/** Cancel: back to where the user came from, or to the record (the list for a new one) when they came from elsewhere. */
function CancelButton({ fallback }: { fallback: string }) {
  const navigate = useNavigate();
  const location = useLocation();
  // 'default' is the key of the first page of the session: there is no "back" inside the app.
  const back = () => (location.key !== 'default' ? navigate(-1) : navigate(fallback));
  return <Button label="ra.action.cancel" onClick={back} size="medium" sx={{ ml: 1 }} />;
}

/** Delete on the edit page, for those the declaration allows, after a confirmation. */
function EditDelete({ decl, paths }: { decl: ResourceDeclaration; paths: ResourcePaths }) {
  const { canAccess } = useCanAccess({ resource: decl.name, action: 'delete' });
  if (!canAccess) return null;
  return <DeleteButton mutationMode="pessimistic" redirect={paths.list} sx={{ ml: 'auto' }} />;
}

/** Default values of a create form: the declared ones; an address starts in the United Kingdom; a date may start today. */
export const createDefaults = (decl: ResourceDeclaration, now: Date = new Date()) => ({
  ...Object.fromEntries(decl.fields.filter((f) => f.type === 'address' && isFormField(f, 'create')).map((f) => [f.source, { country: 'United Kingdom' }])),
  ...Object.fromEntries(decl.fields.filter((f) => f.type === 'date' && f.date?.defaultToday).map((f) => [f.source, formatDate(now)])),
  ...Object.fromEntries(decl.fields.filter((f) => f.defaultValue !== undefined).map((f) => [f.source, f.defaultValue])),
});

function EngineForm({ decl, view, overrides, paths }: { decl: ResourceDeclaration; view: 'edit' | 'create'; overrides?: Record<string, FieldOverride>; paths?: ResourcePaths }) {
  const { defs, isPending } = useCustomFields(decl);
  const submit = useSubmitWithUploads();
  const record = useRecordContext();
  if (isPending) return null;
  const defaults = createDefaults(decl);
  const fallback = paths ? (view === 'edit' && record ? paths.show(record.id) : paths.list) : '/';
  return (
    <SimpleForm
      // The engine's own messages, not the browser's bubbles (type="email" would block the submit with its own).
      noValidate
      validate={formValidator(decl, defs)}
      onSubmit={submit}
      defaultValues={view === 'create' ? defaults : undefined}
      toolbar={
        <Toolbar sx={{ flexWrap: 'wrap', gap: 1 }}>
          <SaveButton />
          <CancelButton fallback={fallback} />
          {view === 'edit' && paths && <EditDelete decl={decl} paths={paths} />}
        </Toolbar>
      }
      sx={{ maxWidth: 900 }}
    >
      <UnsavedChangesGuard />
      {view === 'edit' && <StaleNotice />}
      <FormInputs decl={decl} view={view} overrides={overrides} defs={defs} />
    </SimpleForm>
  );
}

// Pessimistic saves: the server's field errors (422) show next to the fields, and nothing is shown as saved until it is.
/** What a successful save does: says what was saved by its name ("Client created"), then opens the record. */
export function useSavedNotice(decl: ResourceDeclaration, paths: ResourcePaths, done: 'created' | 'updated') {
  const notice = useNamedNotice(decl);
  const redirect = useRedirect();
  return (data: RaRecord) => {
    notice(done);
    redirect(paths.show(data.id), undefined, undefined, undefined, AFTER_SAVE);
  };
}

export function EngineEdit({ decl, paths, fieldOverrides }: ViewOptions) {
  const stale = useStaleEdit();
  const onSuccess = useSavedNotice(decl, paths, 'updated');
  return (
    <StaleProvider value={stale}>
      <Edit resource={decl.name} mutationMode="pessimistic" mutationOptions={{ onError: stale.onError, onSuccess }} redirect={(_r: any, id: any) => paths.show(id)} transform={transformUploads(decl)}>
        <EngineForm decl={decl} view="edit" overrides={fieldOverrides} paths={paths} />
      </Edit>
    </StaleProvider>
  );
}

export function EngineCreate({ decl, paths, fieldOverrides }: ViewOptions) {
  const onSuccess = useSavedNotice(decl, paths, 'created');
  return (
    <Create resource={decl.name} mutationOptions={{ onSuccess }} redirect={(_r: any, id: any) => paths.show(id)} transform={transformUploads(decl)}>
      <EngineForm decl={decl} view="create" overrides={fieldOverrides} paths={paths} />
    </Create>
  );
}
