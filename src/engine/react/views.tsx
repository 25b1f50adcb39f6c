import { Fragment, type ReactElement, type ReactNode } from 'react';
import { Box, Tab, Tabs, Typography } from '@mui/material';
import { Link } from 'react-router';
import {
  BulkDeleteButton, BulkExportButton, CreateButton, Create, DataTable, DeleteButton, Edit, EditButton, ExportButton, FilterButton,
  List, SearchInput, SelectInput, NullableBooleanInput, ReferenceInput, AutocompleteInput, Show, SimpleForm, SimpleShowLayout,
  TopToolbar, useCanAccess, useTranslate, Toolbar, SaveButton,
} from 'react-admin';
import type { FieldDeclaration, ListTab, ResourceDeclaration } from '../types';
import { hasView } from '../types';
import { validateRecord, type CustomFieldDefinition, type Problems } from '../validate';
import { customFieldAsDeclaration } from '../validate';
import { FieldFor } from './fields';
import { InputFor, readAsDataUrl } from './inputs';
import { PickerInput } from './DatePickerInput';
import { CustomFieldInputs, useCustomFields } from './customFields';
import type { ResourcePaths } from './paths';

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
  /** Extra buttons next to Bulk delete/export (e.g. Approve selected). */
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

export const formValidator = (decl: ResourceDeclaration, defs: CustomFieldDefinition[]) => (values: Record<string, any>) =>
  toFormErrors(validateRecord(decl, values, defs));

/** Uploads become data URLs before the record is sent; an untouched upload keeps its URL. */
export const transformUploads = (decl: ResourceDeclaration) => async (data: Record<string, any>) => {
  const out = { ...data };
  for (const f of decl.fields) {
    if (f.type !== 'image' && f.type !== 'file') continue;
    const v = out[f.source];
    if (v && typeof v === 'object') out[f.source] = v.rawFile instanceof File ? await readAsDataUrl(v.rawFile) : (v.src ?? null);
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
        actions={<ListActions decl={decl} />}
        empty={<EmptyList decl={decl} paths={paths} tab={tab} />}
        // A wide table scrolls inside its card; the toolbar stays in view.
        sx={{ '& .RaList-main': { minWidth: 0 }, '& .RaList-content': { overflowX: 'auto' } }}
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

export function EngineShow({ decl, paths, fieldOverrides, showActions }: ViewOptions) {
  return (
    <Show
      resource={decl.name}
      actions={
        <TopToolbar>
          {showActions}
          <EditButton />
          <DeleteButton mutationMode="pessimistic" redirect={paths.list} />
        </TopToolbar>
      }
    >
      <ShowFields decl={decl} fieldOverrides={fieldOverrides} />
    </Show>
  );
}

function FormInputs({ decl, view, overrides, defs }: { decl: ResourceDeclaration; view: 'edit' | 'create'; overrides?: Record<string, FieldOverride>; defs: CustomFieldDefinition[] }) {
  return (
    <>
      {decl.fields.filter((f: FieldDeclaration) => !f.readOnly && hasView(f, view)).map((f) => (
        <Fragment key={f.source}>{overrides?.[f.source]?.input ?? <InputFor of={f} />}</Fragment>
      ))}
      <CustomFieldInputs defs={defs} />
    </>
  );
}

function EngineForm({ decl, view, overrides }: { decl: ResourceDeclaration; view: 'edit' | 'create'; overrides?: Record<string, FieldOverride> }) {
  const { defs, isPending } = useCustomFields(decl);
  if (isPending) return null;
  const defaults = Object.fromEntries(decl.fields.filter((f) => f.defaultValue !== undefined).map((f) => [f.source, f.defaultValue]));
  return (
    <SimpleForm
      // The engine's own messages, not the browser's bubbles (type="email" would block the submit with its own).
      noValidate
      validate={formValidator(decl, defs)}
      defaultValues={view === 'create' ? defaults : undefined}
      toolbar={
        <Toolbar>
          <SaveButton />
        </Toolbar>
      }
      sx={{ maxWidth: 900 }}
    >
      <FormInputs decl={decl} view={view} overrides={overrides} defs={defs} />
    </SimpleForm>
  );
}

// Pessimistic saves: the server's field errors (422) show next to the fields, and nothing is shown as saved until it is.
export function EngineEdit({ decl, paths, fieldOverrides }: ViewOptions) {
  return (
    <Edit resource={decl.name} mutationMode="pessimistic" redirect={(_r: any, id: any) => paths.show(id)} transform={transformUploads(decl)}>
      <EngineForm decl={decl} view="edit" overrides={fieldOverrides} />
    </Edit>
  );
}

export function EngineCreate({ decl, paths, fieldOverrides }: ViewOptions) {
  return (
    <Create resource={decl.name} redirect={(_r: any, id: any) => paths.show(id)} transform={transformUploads(decl)}>
      <EngineForm decl={decl} view="create" overrides={fieldOverrides} />
    </Create>
  );
}
