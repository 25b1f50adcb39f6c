import { Fragment, createContext, useContext, useState, type ReactElement, type ReactNode } from 'react';
import { Alert, Box, Tab, Tabs, Typography } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { Link } from 'react-router';
import {
  BulkDeleteButton, BulkExportButton, CreateButton, Create, DataTable, DeleteButton, Edit, EditButton, ExportButton, FilterButton,
  List, SearchInput, SelectInput, NullableBooleanInput, ReferenceInput, AutocompleteInput, Show, SimpleForm, SimpleShowLayout,
  TopToolbar, useCanAccess, useTranslate, Toolbar, SaveButton, Button, useEditContext, useRecordContext, useNotify, useSaveContext,
} from 'react-admin';
import { useFormContext } from 'react-hook-form';
import type { FieldDeclaration, ListTab, ResourceDeclaration } from '../types';
import { hasView } from '../types';
import { validateRecord, type CustomFieldDefinition, type Problems } from '../validate';
import { customFieldAsDeclaration } from '../validate';
import { FieldFor } from './fields';
import { InputFor } from './inputs';
import { UploadFailure, uploadFile } from './files';
import { ApiFailure } from '../../providers/request';
import { fileKindOf } from '../files';
import { PickerInput } from './DatePickerInput';
import { CustomFieldInputs, useCustomFields } from './customFields';
import { buildExporter } from './exporter';
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
  return (values: Record<string, any>) => toFormErrors(validateRecord(writable, values, defs));
};

/**
 * A newly chosen file is uploaded to the file store before the record is sent, and the record carries its id;
 * an untouched one keeps its id. A refused upload rejects with an UploadFailure naming the field.
 */
export const transformUploads = (decl: ResourceDeclaration) => async (data: Record<string, any>) => {
  const out = { ...data };
  for (const f of decl.fields) {
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
    if (f.type === 'choice') inputs.push(<SelectInput key={f.source} source={f.source} label={f.label} choices={f.choices ?? []} />);
    else if (f.type === 'boolean') inputs.push(<NullableBooleanInput key={f.source} source={f.source} label={f.label} />);
    else if (f.type === 'reference')
      inputs.push(
        <ReferenceInput key={f.source} source={f.source} reference={f.reference!}>
          <AutocompleteInput label={f.label} filterToQuery={(q: string) => (q ? { q } : {})} />
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
    <Tabs value={current?.id ?? decl.tabs[0].id} aria-label={translate(`resources.${decl.name}.name`, { smart_count: 2 })} variant="scrollable">
      {decl.tabs.map((t) => (
        <Tab key={t.id} value={t.id} label={translate(`resources.${decl.name}.tabs.${t.id}`, { _: t.label })} component={Link} to={paths.tab(t.id)} />
      ))}
    </Tabs>
  );
}

function ListActions({ decl }: { decl: ResourceDeclaration }) {
  return (
    <TopToolbar>
      {decl.fields.some((f) => f.filter) && <FilterButton />}
      <CreateButton />
      <ExportButton maxResults={10000} />
    </TopToolbar>
  );
}

function EmptyList({ decl, paths, tab }: { decl: ResourceDeclaration; paths: ResourcePaths; tab?: ListTab }) {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: decl.name, action: 'create' });
  const name = translate(`resources.${decl.name}.name`, { smart_count: 2, _: decl.label.many }).toLowerCase();
  const filtered = tab && Object.keys(tab.filter).length > 0;
  return (
    <Box sx={{ p: 4, textAlign: 'center' }}>
      <Typography variant="h6" gutterBottom>
        {translate(filtered ? 'engine.list.emptyFiltered' : 'engine.list.empty', { name })}
      </Typography>
      {canAccess && !filtered && (
        <CreateButton variant="contained" label="engine.list.create" to={paths.create} />
      )}
    </Box>
  );
}

function Columns({ decl, defs, overrides }: { decl: ResourceDeclaration; defs: CustomFieldDefinition[]; overrides?: Record<string, FieldOverride> }) {
  const cols: ReactNode[] = decl.fields.filter((f) => hasView(f, 'list')).map((f) => (
    <DataTable.Col key={f.source} source={f.source} label={f.label} disableSort={!f.sortable}>
      {overrides?.[f.source]?.column ?? overrides?.[f.source]?.field ?? <FieldFor of={f} />}
    </DataTable.Col>
  ));
  for (const d of defs.filter((x: any) => x.show_in_list)) {
    const f = customFieldAsDeclaration(d);
    cols.push(
      <DataTable.Col key={f.source} source={f.source} label={f.label} disableSort>
        <FieldFor of={f} />
      </DataTable.Col>,
    );
  }
  return <>{cols}</>;
}

/** The generated list: tabs, search and filters, sortable columns, server pagination, bulk delete and CSV export. */
export function EngineList({ decl, paths, fieldOverrides, bulkActions, tabId }: ViewOptions & { tabId?: string }) {
  const tab = decl.tabs?.find((t) => t.id === tabId) ?? decl.tabs?.[0];
  const { defs } = useCustomFields(decl);
  return (
    <Fragment>
      <ListTabs decl={decl} paths={paths} current={tab} />
      <List
        key={tab?.id ?? 'all'}
        resource={decl.name}
        filter={tab?.filter}
        storeKey={`${decl.name}.${tab?.id ?? 'all'}.listParams`}
        sort={decl.defaultSort}
        perPage={25}
        filters={filterInputs(decl)}
        // Readable CSV: labels as headers, references by name, formulas neutralised, dated file name.
        exporter={buildExporter(decl, { declarations, customFields: defs })}
        actions={<ListActions decl={decl} />}
        empty={<EmptyList decl={decl} paths={paths} tab={tab} />}
        // A wide table scrolls inside its card; the toolbar stays in view. The table itself scrolls, not the card:
        // the bulk bar is drawn over the toolbar above the card's top edge, and a scrolling card would clip it.
        sx={{ '& .RaList-main': { minWidth: 0 }, '& .RaDataTable-root': { minWidth: 0 }, '& .RaDataTable-tableWrapper': { overflowX: 'auto' } }}
      >
        <ListBody decl={decl} paths={paths} defs={defs} overrides={fieldOverrides} bulkActions={bulkActions} />
      </List>
    </Fragment>
  );
}

function ListBody({ decl, paths, defs, overrides, bulkActions }: { decl: ResourceDeclaration; paths: ResourcePaths; defs: CustomFieldDefinition[]; overrides?: Record<string, FieldOverride>; bulkActions?: ReactElement }) {
  return (
    <DataTable
      rowClick={(id) => paths.show(id)}
      bulkActionButtons={
        <>
          <BulkActions decl={decl} />
          {bulkActions}
          <BulkExportButton />
          <BulkDeleteButton mutationMode="pessimistic" />
        </>
      }
    >
      <Columns decl={decl} defs={defs} overrides={overrides} />
    </DataTable>
  );
}

export function ShowFields({ decl, fieldOverrides }: { decl: ResourceDeclaration; fieldOverrides?: Record<string, FieldOverride> }) {
  const { defs } = useCustomFields(decl);
  return (
    <SimpleShowLayout>
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

function EngineForm({ decl, view, overrides }: { decl: ResourceDeclaration; view: 'edit' | 'create'; overrides?: Record<string, FieldOverride> }) {
  const { defs, isPending } = useCustomFields(decl);
  const submit = useSubmitWithUploads();
  if (isPending) return null;
  const defaults = Object.fromEntries(decl.fields.filter((f) => f.defaultValue !== undefined).map((f) => [f.source, f.defaultValue]));
  return (
    <SimpleForm
      // The engine's own messages, not the browser's bubbles (type="email" would block the submit with its own).
      noValidate
      validate={formValidator(decl, defs)}
      onSubmit={submit}
      defaultValues={view === 'create' ? defaults : undefined}
      toolbar={
        <Toolbar>
          <SaveButton />
        </Toolbar>
      }
      sx={{ maxWidth: 900 }}
    >
      {view === 'edit' && <StaleNotice />}
      <FormInputs decl={decl} view={view} overrides={overrides} defs={defs} />
    </SimpleForm>
  );
}

// Pessimistic saves: the server's field errors (422) show next to the fields, and nothing is shown as saved until it is.
export function EngineEdit({ decl, paths, fieldOverrides }: ViewOptions) {
  const stale = useStaleEdit();
  return (
    <StaleProvider value={stale}>
      <Edit resource={decl.name} mutationMode="pessimistic" mutationOptions={{ onError: stale.onError }} redirect={(_r: any, id: any) => paths.show(id)} transform={transformUploads(decl)}>
        <EngineForm decl={decl} view="edit" overrides={fieldOverrides} />
      </Edit>
    </StaleProvider>
  );
}

export function EngineCreate({ decl, paths, fieldOverrides }: ViewOptions) {
  return (
    <Create resource={decl.name} redirect={(_r: any, id: any) => paths.show(id)} transform={transformUploads(decl)}>
      <EngineForm decl={decl} view="create" overrides={fieldOverrides} />
    </Create>
  );
}
