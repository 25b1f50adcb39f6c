// The generated list: tabs, filters, columns, rows as links, bulk actions and export.
import {
  Fragment,
  createContext,
  useContext,
  useEffect,
  useRef,
  useState,
  type ReactElement,
  type ReactNode,
} from 'react';
import { Box, Tab, Tabs, Typography, useMediaQuery, type Theme } from '@mui/material';
import { Link } from 'react-router';
import {
  BulkDeleteButton,
  BulkExportButton,
  CreateButton,
  DataTable,
  DataTableLoading,
  FilterButton,
  List,
  SearchInput,
  SelectInput,
  NullableBooleanInput,
  ReferenceInput,
  AutocompleteInput,
  TopToolbar,
  useCanAccess,
  useTranslate,
  useRecordContext,
  ColumnsButton,
  DataTableBody,
  DataTableRow,
  SimpleList,
  useDataTableCallbacksContext,
  useListContext,
  type DataTableRowProps,
  type RaRecord,
} from 'react-admin';
import type { FieldOverride, ViewOptions } from './viewOptions';
import type { FieldDeclaration, ListTab, ResourceDeclaration } from '../../../core/engine/types';
import type React from 'react';
import { hasView, nameFieldsOf } from '../../../core/engine/types';
import { deletionOf } from '../../../core/engine/lifecycle';
import { declForTab, listFieldsOf } from '../../../core/engine/listFields';
import type { CustomFieldDefinition } from '../../../core/engine/validate';
import { customFieldAsDeclaration } from '../../../core/engine/validate';
import { FieldFor } from './fields';
import { InputFor, referenceSort } from './inputs';
import { PickerInput } from './DatePickerInput';
import { useCustomFields } from './customFields';
import { buildExporter } from './exporter';
import { declarations } from '../../../core/resources/declarations';
import type { ResourcePaths } from './paths';
import { BulkActions } from './actions';
import { ExcelListButton, ExportListButton, PrintListButton } from './download';
import { PRINTABLE_LISTS } from '../../../core/engine/exportFormat';
import { visuallyHidden } from '../../theme';
import { formatPounds } from '../../../core/engine/money';

function filterInputs(decl: ResourceDeclaration): ReactElement[] {
  const inputs: ReactElement[] = [];
  if (decl.search?.length) inputs.push(<SearchInput key="q" source="q" alwaysOn />);
  for (const f of decl.fields.filter((x) => x.filter)) {
    // Filters are as wide as their longest option name (at least 200 px), never cut.
    if (f.type === 'choice')
      inputs.push(
        <SelectInput
          key={f.source}
          source={f.source}
          label={f.label}
          choices={f.choices ?? []}
          sx={{ minWidth: 200 }}
        />,
      );
    else if (f.type === 'boolean')
      inputs.push(<NullableBooleanInput key={f.source} source={f.source} label={f.label} />);
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
        <Tab
          key={t.id}
          value={t.id}
          label={t.labelIsData ? t.label : translate(`resources.${decl.name}.tabs.${t.id}`, { _: t.label })}
          component={Link}
          to={paths.tab(t.id)}
        />
      ))}
    </Tabs>
  );
}

/** More list columns than this, and the user chooses which to show (remembered in react-admin's store). */
export const COLUMN_CHOICE_FROM = 6;

/** The name of a row: the first field of the declaration's recordRepresentation ('%{first_name} %{last_name}'). */
export const nameField = (decl: ResourceDeclaration) => /%\{(\w+)\}/.exec(decl.recordRepresentation)?.[1];

function ListActions({
  decl,
  columns,
  readOnly,
  filter,
  extra,
}: {
  decl: ResourceDeclaration;
  columns: number;
  readOnly?: boolean;
  filter?: Record<string, unknown>;
  extra?: ReactElement;
}) {
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
      {/* Whoever sees the list may print it (the server checks the same 'list' access). */}
      {PRINTABLE_LISTS.includes(decl.name) && <PrintListButton resource={decl.name} filter={filter} />}
      {extra}
    </TopToolbar>
  );
}

function EmptyList({
  decl,
  paths,
  tab,
  readOnly,
  extra,
}: {
  decl: ResourceDeclaration;
  paths: ResourcePaths;
  tab?: ListTab;
  readOnly?: boolean;
  /** The list's own actions (a pay run's Generate), offered on the empty list too. */
  extra?: ReactElement;
}) {
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
      {extra}
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

function Columns({
  decl,
  defs,
  paths,
  overrides,
}: {
  decl: ResourceDeclaration;
  defs: CustomFieldDefinition[];
  paths: ResourcePaths;
  overrides?: Record<string, FieldOverride>;
}) {
  const name = nameField(decl);
  const custom = new Set(defs.map((d) => `custom_fields.${d.key}`));
  const cols: ReactNode[] = listColumns(decl, defs).map((f) => (
    <DataTable.Col
      key={f.source}
      source={f.source}
      label={f.label}
      disableSort={!f.sortable || custom.has(f.source)}
      cellSx={() => cellSx(f)}
    >
      {overrides?.[f.source]?.column ??
        overrides?.[f.source]?.field ??
        // References in a row are plain text: the row itself opens the record, the name is its one link.
        (f.source === name ? <NameLink of={f} paths={paths} /> : <FieldFor of={f} plain />)}
    </DataTable.Col>
  ));
  return <>{cols}</>;
}

/** Which row of the list is the one Tab stop (roving tabindex); null until the user moves, then the first row. */
const CurrentRowContext = createContext<{ current: unknown; setCurrent: (id: unknown) => void; first: unknown }>({
  current: null,
  setCurrent: () => undefined,
  first: null,
});

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
  const inName = new Set(nameFieldsOf(decl));
  const status = decl.fields.find((f) => f.source === 'status' && f.type === 'choice' && hasView(f, 'list'));
  const secondary = decl.fields
    .filter(
      (f) =>
        hasView(f, 'list') &&
        !inName.has(f.source) &&
        f !== status &&
        !['image', 'file', 'boolean', 'references', 'address'].includes(f.type),
    )
    .slice(0, 2);
  return { primary: representationOf(decl), secondary, status };
}

/**
 * The list below the tablet breakpoint: one card a record, built from the declaration; a tap opens it. `card` replaces
 * the line under the name; the status says what the list's status column says (its override, if any).
 */
export function EngineSimpleList({
  decl,
  paths,
  card,
  overrides,
}: {
  decl: ResourceDeclaration;
  paths: ResourcePaths;
  card?: ReactElement;
  overrides?: Record<string, FieldOverride>;
}) {
  const { primary, secondary, status } = simpleListParts(decl);
  const statusCell = status && overrides?.[status.source]?.column;
  return (
    <SimpleList
      className="engine-simple-list"
      primaryText={(r: RaRecord) => primary(r)}
      secondaryText={() => (
        <Box component="span" sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1.5 }}>
          {card ?? secondary.map((f) => <FieldFor key={f.source} of={f} plain component="span" />)}
        </Box>
      )}
      tertiaryText={
        statusCell ? (
          // react-admin's own class: placed and dimmed as its status text is.
          <span className="RaSimpleList-tertiary">{statusCell}</span>
        ) : status ? (
          (r: RaRecord) => status.choices?.find((c) => c.id === r.status)?.name ?? ''
        ) : undefined
      }
      rowClick={(id: any) => paths.show(id)}
    />
  );
}

/** The generated list: tabs, search and filters, sortable columns, server pagination, bulk delete and CSV export. */
export function EngineList({
  decl: declared,
  paths,
  fieldOverrides,
  bulkActions,
  listActions,
  rowActions,
  tabId,
  title,
  readOnly,
  card,
}: ViewOptions & {
  tabId?: string;
  /** On a phone, the line under each card's name (default: the next list fields). */
  card?: ReactElement;
  /** false: the page around the list sets the title. */
  title?: false;
  /**
   * A report: rows open their records, where changes happen; the list itself offers no create, bulk action or delete,
   * only export.
   */
  readOnly?: boolean;
}) {
  const tab = declared.tabs?.find((t) => t.id === tabId) ?? declared.tabs?.[0];
  const decl = declForTab(declared, tab?.id);
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
        // Rows carry what the list shows, not whole records (GET ?fields=). Passed as the query's meta, which also
        // keys the records react-admin keeps from a list: a record's own page never starts from a partial one.
        queryOptions={{ meta: { fields: listFieldsOf(decl) } }}
        filters={filterInputs(decl)}
        // The bulk bar's Export of selected rows: the same columns and values as the server's file.
        exporter={buildExporter(decl, { declarations, customFields: defs })}
        actions={
          <ListActions
            decl={decl}
            columns={listColumns(decl, defs).length}
            readOnly={readOnly}
            filter={tab?.filter}
            extra={listActions}
          />
        }
        empty={<EmptyList decl={decl} paths={paths} tab={tab} readOnly={readOnly} extra={listActions} />}
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
        <ListBody
          decl={decl}
          paths={paths}
          defs={defs}
          overrides={fieldOverrides}
          bulkActions={bulkActions}
          rowActions={rowActions}
          readOnly={readOnly}
          card={card}
        />
      </List>
    </Fragment>
  );
}

/**
 * The table while its first page loads. react-admin's stand-in (grey rows, shown once a second has passed) draws a
 * checkbox in each row with no name: on a slow machine or network, a screen reader met six nameless checkboxes on
 * every list (axe "label", serious; issue 30 point 5). The stand-in is only a picture, so it is kept out of reach
 * (aria-hidden and inert: no name needed, no Tab stop); what it says is said in words.
 */
function ListLoading() {
  const translate = useTranslate();
  return (
    <div role="status">
      <Box component="span" sx={visuallyHidden}>
        {translate('ra.page.loading')}
      </Box>
      <div aria-hidden="true" inert>
        <DataTableLoading hasBulkActions nbChildren={1} />
      </div>
    </div>
  );
}

function ListBody({
  decl,
  paths,
  defs,
  overrides,
  bulkActions,
  rowActions,
  readOnly,
  card,
}: {
  decl: ResourceDeclaration;
  paths: ResourcePaths;
  defs: CustomFieldDefinition[];
  overrides?: Record<string, FieldOverride>;
  bulkActions?: ReactElement;
  rowActions?: ReactElement;
  readOnly?: boolean;
  card?: ReactElement;
}) {
  const { canAccess: canExport } = useCanAccess({ resource: decl.name, action: 'export' });
  const { isPending } = useListContext();
  const translate = useTranslate();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  // Below the tablet breakpoint a table cannot fit: one card a record (no bulk actions there).
  if (phone)
    return (
      <>
        <EngineSimpleList decl={decl} paths={paths} card={card} overrides={overrides} />
        <ListTotals decl={decl} />
      </>
    );
  if (isPending) return <ListLoading />;
  return (
    <>
      <DataTable
        body={EngineBody}
        hiddenColumns={listColumns(decl, defs)
          .filter((f) => f.listHidden)
          .map((f) => f.source)}
        rowClick={(id) => paths.show(id)}
        bulkActionButtons={
          readOnly ? (
            canExport ? (
              <BulkExportButton />
            ) : (
              false
            )
          ) : (
            <>
              <BulkActions decl={decl} />
              {bulkActions}
              {canExport && <BulkExportButton />}
              {/* A delete that needs a reason is its action's bulk entry (BulkActions), which asks for it. */}
              {!deletionOf(decl).reason && <BulkDeleteButton mutationMode="pessimistic" />}
            </>
          )
        }
      >
        <Columns decl={decl} defs={defs} paths={paths} overrides={overrides} />
        {rowActions && (
          <DataTable.Col label={translate('engine.list.row_actions')} disableSort>
            {/* A click on a row's button is the button's, not the row's (which opens the record). */}
            <Box onClick={(e) => e.stopPropagation()} sx={{ display: 'flex', gap: 1 }}>
              {rowActions}
            </Box>
          </DataTable.Col>
        )}
      </DataTable>
      <ListTotals decl={decl} />
    </>
  );
}

/**
 * The declared totals (listTotals) of every row the list's filters and tab match, not only this page's: the server
 * sums them with its count and answers them beside the rows (the data provider's meta.totals).
 */
export function ListTotals({ decl }: { decl: ResourceDeclaration }) {
  const { meta, total } = useListContext() as ReturnType<typeof useListContext> & {
    meta?: { totals?: Record<string, number> };
  };
  const translate = useTranslate();
  const totals = meta?.totals;
  if (!decl.listTotals?.length || !totals || !total) return null;
  const fields = decl.listTotals
    .map((s) => decl.fields.find((f) => f.source === s)!)
    .filter((f) => totals[f.source] !== undefined);
  return (
    <Box
      component="section"
      aria-label={translate('engine.list.totals', { smart_count: total })}
      className="engine-list-totals"
      sx={{ px: 2, py: 1.5, borderTop: 1, borderColor: 'divider' }}
    >
      <Typography variant="subtitle2" component="h2">
        {translate('engine.list.totals', { smart_count: total })}
      </Typography>
      <Box component="dl" sx={{ m: 0, display: 'flex', flexWrap: 'wrap', columnGap: 3, rowGap: 0.5 }}>
        {fields.map((f) => (
          <Box key={f.source} sx={{ display: 'flex', gap: 1 }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {translate(`resources.${decl.name}.fields.${f.source}`, { _: f.label })}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 500 }} data-total={f.source}>
              {f.type === 'money' ? formatPounds(totals[f.source]) : totals[f.source]}
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
