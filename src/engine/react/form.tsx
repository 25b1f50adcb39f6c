// The generated create and edit forms: inputs, uploads on save, cancel and delete.
import { AFTER_SAVE, UnsavedChangesGuard } from './UnsavedChanges';
import { Fragment } from 'react';
import { useLocation, useNavigate } from 'react-router';
import {
  Create,
  DeleteButton,
  Edit,
  SimpleForm,
  useCanAccess,
  Toolbar,
  SaveButton,
  Button,
  useRecordContext,
  usePermissions,
  useSaveContext,
  useRedirect,
  type RaRecord,
} from 'react-admin';
import { missingFieldGroups, missingGroupsWarning } from '../../../core/resources/access';
import type { Principal } from '../../../core/engine/types';
import { useNamedNotice } from './show';
import { formValidator } from './formErrors';
import { StaleNotice, StaleProvider, useStaleEdit } from './stale';
import type { FieldOverride, ViewOptions } from './viewOptions';
import type { FieldDeclaration, ResourceDeclaration } from '../../../core/engine/types';
import { hasView } from '../../../core/engine/types';
import { Alert } from '@mui/material';
import {
  deleteRefusal,
  deletionOf,
  isActionOnly,
  lockedReason,
  notEditableReason,
} from '../../../core/engine/lifecycle';
import { formatDate } from '../../../core/engine/dates';
import type { CustomFieldDefinition } from '../../../core/engine/validate';
import { InputFor } from './inputs';
import { UploadFailure, uploadFile } from './files';
import { ApiFailure } from '../../providers/request';
import { api } from '../../providers/http';
import { useQuery } from '@tanstack/react-query';
import { fileKindOf } from '../../../core/engine/files';
import { CustomFieldInputs, useCustomFields } from './customFields';
import type { ResourcePaths } from './paths';

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
      if (
        a &&
        typeof a === 'object' &&
        !['line1', 'line2', 'city', 'postcode'].some((k) => typeof a[k] === 'string' && a[k].trim())
      )
        out[f.source] = null;
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

/**
 * Whether a form offers an input for a field: never for what the server fills, computes or changes only through
 * actions (the write policy would refuse it anyway).
 */
export const isFormField = (decl: ResourceDeclaration, f: FieldDeclaration, view: 'edit' | 'create') =>
  !f.readOnly && !isActionOnly(decl, f) && !f.computed && hasView(f, view);

/** The inputs of a generated form; `exclude` leaves out fields the screen fixes itself (a child's parent). */
export function FormInputs({
  decl,
  view,
  overrides,
  defs,
  exclude = [],
}: {
  decl: ResourceDeclaration;
  view: 'edit' | 'create';
  overrides?: Record<string, FieldOverride>;
  defs: CustomFieldDefinition[];
  exclude?: string[];
}) {
  const record = useRecordContext();
  const stored = view === 'edit' ? record : undefined;
  const locked = !!stored && !!lockedReason(decl, stored);
  return (
    <>
      {decl.fields
        .filter((f: FieldDeclaration) => isFormField(decl, f, view) && !exclude.includes(f.source))
        .map((f) => {
          // The lifecycle's rule, read before any save: a field not editable in the record's state is read-only and
          // says when it is; every field of a locked record is. A create-only field is shown on edit but not changed.
          const notNow = stored ? notEditableReason(decl, f, stored) : null;
          const readOnly = locked || !!notNow || (view === 'edit' && f.createOnly);
          return (
            <Fragment key={f.source}>
              {overrides?.[f.source]?.input ?? (
                <InputFor
                  of={f}
                  {...(readOnly ? { readOnly: true } : {})}
                  {...(notNow ? { helperText: notNow } : {})}
                />
              )}
            </Fragment>
          );
        })}
      <CustomFieldInputs defs={defs} />
    </>
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

/**
 * Cancel: back to where the user came from, or to the record (the list for a new one) when they came from elsewhere.
 */
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
  const record = useRecordContext();
  // A delete that needs a reason is offered by its own action's button, which asks for it; a record its lifecycle
  // keeps (locked, or in a state not deletable) offers none.
  if (!canAccess || deletionOf(decl).reason || (record && deleteRefusal(decl, record))) return null;
  return <DeleteButton mutationMode="pessimistic" redirect={paths.list} sx={{ ml: 'auto' }} />;
}

/**
 * Default values of a create form: the declared ones; an address starts in the United Kingdom; a date may start today.
 */
export const createDefaults = (decl: ResourceDeclaration, now: Date = new Date()) => ({
  ...Object.fromEntries(
    decl.fields
      .filter((f) => f.type === 'address' && isFormField(decl, f, 'create'))
      .map((f) => [f.source, { country: 'United Kingdom' }]),
  ),
  ...Object.fromEntries(
    decl.fields.filter((f) => f.type === 'date' && f.date?.defaultToday).map((f) => [f.source, formatDate(now)]),
  ),
  ...Object.fromEntries(decl.fields.filter((f) => f.defaultValue !== undefined).map((f) => [f.source, f.defaultValue])),
});

/**
 * The agency's own starting values of a new record where its declaration has them (issue 35: a new client's invoice
 * mode, payment terms…), read fresh each time a create form opens: a default changed a moment ago applies. Without
 * them (the call failed) the declared defaults stand, and the server still applies the agency's to what is not sent.
 */
function useAgencyDefaults(decl: ResourceDeclaration, view: 'edit' | 'create') {
  const query = useQuery({
    queryKey: [decl.name, 'agency-defaults'],
    queryFn: ({ signal }) => api<{ data: Record<string, unknown> }>(`/${decl.name}/defaults`, { signal }),
    enabled: view === 'create' && !!decl.agencyDefaults?.length,
    gcTime: 0,
    retry: false,
  });
  return { loading: query.isLoading, values: query.data?.data ?? {} };
}

function EngineForm({
  decl,
  view,
  overrides,
  paths,
}: {
  decl: ResourceDeclaration;
  view: 'edit' | 'create';
  overrides?: Record<string, FieldOverride>;
  paths?: ResourcePaths;
}) {
  const { defs, isPending } = useCustomFields(decl);
  const submit = useSubmitWithUploads();
  const record = useRecordContext();
  const agency = useAgencyDefaults(decl, view);
  const { permissions } = usePermissions<Principal>();
  if (isPending || agency.loading) return null;
  // A field of a guarded group the role is not granted (a custom role without pay rates, on a rate card): the server
  // refuses the save, so the form says so first, in words, naming what to ask for.
  const missing = permissions
    ? missingGroupsWarning(
        missingFieldGroups(
          permissions,
          decl.fields.filter((f) => hasView(f, view) && !f.readOnly && !f.computed),
        ),
      )
    : null;
  const defaults = { ...createDefaults(decl), ...agency.values };
  const fallback = paths ? (view === 'edit' && record ? paths.show(record.id) : paths.list) : '/';
  // A locked record's edit page (opened by its address) says why and offers no save.
  const locked = view === 'edit' && record ? lockedReason(decl, record) : null;
  return (
    <SimpleForm
      // The engine's own messages, not the browser's bubbles (type="email" would block the submit with its own).
      noValidate
      validate={formValidator(decl, defs)}
      onSubmit={submit}
      defaultValues={view === 'create' ? defaults : undefined}
      toolbar={
        <Toolbar sx={{ flexWrap: 'wrap', gap: 1 }}>
          {!locked && <SaveButton />}
          <CancelButton fallback={fallback} />
          {view === 'edit' && paths && <EditDelete decl={decl} paths={paths} />}
        </Toolbar>
      }
      sx={{ maxWidth: 900 }}
    >
      <UnsavedChangesGuard />
      {view === 'edit' && <StaleNotice />}
      {missing && !locked && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {missing}
        </Alert>
      )}
      {locked && (
        <Alert severity="info" role="status" sx={{ mb: 2 }}>
          {locked}
        </Alert>
      )}
      <FormInputs decl={decl} view={view} overrides={overrides} defs={defs} />
    </SimpleForm>
  );
}

// Pessimistic saves: the server's field errors (422) show next to the fields, and nothing is shown as saved until it
// is.
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
      <Edit
        resource={decl.name}
        mutationMode="pessimistic"
        mutationOptions={{ onError: stale.onError, onSuccess }}
        redirect={(_r: any, id: any) => paths.show(id)}
        transform={transformUploads(decl)}
      >
        <EngineForm decl={decl} view="edit" overrides={fieldOverrides} paths={paths} />
      </Edit>
    </StaleProvider>
  );
}

export function EngineCreate({ decl, paths, fieldOverrides }: ViewOptions) {
  const onSuccess = useSavedNotice(decl, paths, 'created');
  return (
    <Create
      resource={decl.name}
      mutationOptions={{ onSuccess }}
      redirect={(_r: any, id: any) => paths.show(id)}
      transform={transformUploads(decl)}
    >
      <EngineForm decl={decl} view="create" overrides={fieldOverrides} paths={paths} />
    </Create>
  );
}
