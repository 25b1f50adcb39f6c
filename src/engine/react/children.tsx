import { Fragment, useId, useState, type ReactNode } from 'react';
import {
  Box,
  Card,
  CardActions,
  CardContent,
  Dialog,
  DialogContent,
  DialogTitle,
  ListItemIcon,
  ListItemText,
  MenuItem,
  Stack,
  Tooltip,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import {
  Button,
  CreateBase,
  DataTable,
  EditBase,
  ListBase,
  Pagination,
  RecordContextProvider,
  SaveButton,
  SimpleForm,
  Toolbar,
  useCanAccess,
  useGetList,
  useListContext,
  useRecordContext,
  useRefresh,
  useTranslate,
  type Identifier,
  type RaRecord,
} from 'react-admin';
import type { ResourceDeclaration } from '../../../core/engine/types';
import { hasView } from '../../../core/engine/types';
import { isActionOnly, lockedReason } from '../../../core/engine/lifecycle';
import { UnsavedChangesGuard } from './UnsavedChanges';
import { useLinesRefusal } from './lines';
import { FieldFor } from './fields';
import { RecordActions, RecordActionsMenu } from './actions';
import { useCustomFields } from './customFields';
import { FormInputs, createDefaults, transformUploads, useSubmitWithUploads } from './form';
import { StaleNotice, StaleProvider, useStaleEdit } from './stale';
import { formValidator } from './formErrors';
import type { FieldOverride } from './viewOptions';
import { useNamedNotice } from './show';

const parentOf = (decl: ResourceDeclaration) => {
  if (!decl.parent) throw new Error(`${decl.name} has no parent`);
  return decl.parent;
};

/** A child's create form starts from the create defaults of the fields it shows. */
const defaultsOf = (decl: ResourceDeclaration) => {
  const hidden = new Set(decl.fields.filter((f) => isActionOnly(decl, f) || f.readOnly).map((f) => f.source));
  return Object.fromEntries(Object.entries(createDefaults(decl)).filter(([source]) => !hidden.has(source)));
};

/** A child's create or edit form: the generated inputs without the parent's field, which the screen fixes. */
function ChildForm({
  decl,
  view,
  children,
  onCancel,
  overrides,
}: {
  decl: ResourceDeclaration;
  view: 'edit' | 'create';
  children?: ReactNode;
  /** In a dialog: Cancel closes it unsaved. */ onCancel?: () => void;
  /** Inputs the screen gives itself (a reference narrowed to the parent's client). */
  overrides?: Record<string, FieldOverride>;
}) {
  const { defs, isPending } = useCustomFields(decl);
  const submit = useSubmitWithUploads();
  if (isPending) return null;
  return (
    <SimpleForm
      noValidate
      validate={formValidator(decl, defs)}
      onSubmit={submit}
      toolbar={
        <Toolbar sx={{ gap: 1 }}>
          <SaveButton />
          {onCancel && <Button label="ra.action.cancel" size="medium" onClick={onCancel} />}
        </Toolbar>
      }
    >
      <UnsavedChangesGuard />
      {view === 'edit' && <StaleNotice />}
      {children}
      <FormInputs decl={decl} view={view} defs={defs} exclude={[parentOf(decl).field]} overrides={overrides} />
    </SimpleForm>
  );
}

/**
 * Creates a child of one parent record: the parent's field is set by the screen, never typed. `onDone` gets the record
 * as saved.
 */
export function ChildCreate({
  decl,
  parentId,
  onDone,
  onCancel,
  overrides,
}: {
  decl: ResourceDeclaration;
  parentId: Identifier;
  onDone?: (saved: RaRecord) => void;
  onCancel?: () => void;
  overrides?: Record<string, FieldOverride>;
}) {
  const notice = useNamedNotice(decl);
  const refresh = useRefresh();
  const { field } = parentOf(decl);
  return (
    <CreateBase
      resource={decl.name}
      record={{ ...defaultsOf(decl), [field]: parentId }}
      redirect={false}
      // The parent's field is always this parent, whatever the form holds.
      transform={async (data: Record<string, any>) => ({ ...(await transformUploads(decl)(data)), [field]: parentId })}
      mutationOptions={{
        onSuccess: (saved: RaRecord) => {
          notice('created');
          // Refreshes the list and what depends on the children (the parent's compliance, its history).
          refresh();
          onDone?.(saved);
        },
      }}
    >
      <ChildForm decl={decl} view="create" onCancel={onCancel} overrides={overrides} />
    </CreateBase>
  );
}

/** Edits one child; a stale save says so and offers to reload, like every generated edit form. */
export function ChildEdit({
  decl,
  id,
  onDone,
  onCancel,
}: {
  decl: ResourceDeclaration;
  id: Identifier;
  onDone?: () => void;
  onCancel?: () => void;
}) {
  const notice = useNamedNotice(decl);
  const refresh = useRefresh();
  const stale = useStaleEdit();
  return (
    <StaleProvider value={stale}>
      <EditBase
        resource={decl.name}
        id={id}
        mutationMode="pessimistic"
        redirect={false}
        transform={transformUploads(decl)}
        mutationOptions={{
          onError: stale.onError,
          onSuccess: () => {
            notice('updated');
            refresh();
            onDone?.();
          },
        }}
      >
        <ChildForm decl={decl} view="edit" onCancel={onCancel} />
      </EditBase>
    </StaleProvider>
  );
}

/**
 * A wide table scrolls sideways inside its own box instead of widening the page (a phone shows a few columns
 * and scrolls to the rest). `contain` keeps the table's width out of the layout's fit-content width.
 */
export function TableScroll({
  children,
  nowrap,
}: {
  children: ReactNode;
  /** Cells stay one line. */ nowrap?: boolean;
}) {
  // `position` makes the box the containing block of what its cells position absolutely, so that is clipped too.
  return (
    <Box
      sx={{
        overflowX: 'auto',
        contain: 'inline-size',
        position: 'relative',
        '& .RaDataTable-headerCell': { whiteSpace: 'nowrap' },
        // One line a row: cells keep their text on one line, closer together so the row fits a laptop's width.
        ...(nowrap && { '& td': { whiteSpace: 'nowrap' }, '& td, & th': { px: '5px' } }),
      }}
    >
      {children}
    </Box>
  );
}

function FormDialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-label={title}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>{children}</DialogContent>
    </Dialog>
  );
}

/** How a row offers its actions: a button each, or one menu button (a row a single line high). */
export type RowActions = 'buttons' | 'menu';

/** A row's actions in one menu: the record's actions and Edit as items. */
function RowMenu({
  decl,
  record,
  canEdit,
  onEdit,
}: {
  decl: ResourceDeclaration;
  record: RaRecord;
  canEdit: boolean;
  onEdit: () => void;
}) {
  const translate = useTranslate();
  const lineLock = useLinesRefusal(decl, record);
  return (
    <RecordActionsMenu
      decl={decl}
      record={record}
      // Its 34 px target overhangs the cell's padding rather than making the row taller than a line of text.
      buttonSx={{ my: -0.75 }}
      more={(close) =>
        canEdit &&
        !lockedReason(decl, record) &&
        !lineLock && (
          <MenuItem
            onClick={() => {
              close();
              onEdit();
            }}
          >
            <ListItemIcon>
              <EditIcon />
            </ListItemIcon>
            <ListItemText primary={translate('ra.action.edit')} />
          </MenuItem>
        )
      }
    />
  );
}

function RowButtons({ decl, rowActions = 'buttons' }: { decl: ResourceDeclaration; rowActions?: RowActions }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const [editing, setEditing] = useState(false);
  const { canAccess: canEdit } = useCanAccess({ resource: decl.name, action: 'edit', record });
  // A line of a locked document shows no Edit (the server's rule, its words on the disabled actions).
  const lineLock = useLinesRefusal(decl, record);
  if (!record) return null;
  const dialog = editing && (
    <FormDialog title={translate('ra.action.edit')} onClose={() => setEditing(false)}>
      <ChildEdit decl={decl} id={record.id} onDone={() => setEditing(false)} onCancel={() => setEditing(false)} />
    </FormDialog>
  );
  if (rowActions === 'menu')
    return (
      <Box onClick={(e) => e.stopPropagation()}>
        <RowMenu decl={decl} record={record} canEdit={!!canEdit} onEdit={() => setEditing(true)} />
        {dialog}
      </Box>
    );
  return (
    <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap' }} onClick={(e) => e.stopPropagation()}>
      <RecordActions decl={decl} record={record} />
      {canEdit && !lockedReason(decl, record) && !lineLock && (
        <Button label="ra.action.edit" onClick={() => setEditing(true)}>
          <EditIcon />
        </Button>
      )}
      {dialog}
    </Stack>
  );
}

/**
 * The children of one parent record (a staff member's documents): their columns, their actions per row, an
 * edit per row and a create with the parent fixed. `columns` picks fields (any view); default the list's, less the
 * parent.
 */
export function ChildList({
  decl,
  parentId,
  columns,
  header,
  cells,
  onCreated,
  createDisabledReason,
  createOverrides,
  rowActions,
}: {
  decl: ResourceDeclaration;
  parentId: Identifier;
  columns?: string[];
  header?: ReactNode;
  /**
   * 'menu': on a wide screen each row's actions sit in one menu and its cells do not wrap, so a row is one line
   * high (a review of many rows); a phone's cards keep their buttons.
   */
  rowActions?: RowActions;
  /** A column's own cell, by source. */
  cells?: Record<string, ReactNode>;
  /** After a child is added, with the record as the server saved it (its computed fields too). */
  onCreated?: (saved: RaRecord) => void;
  /** Why no child can be added now (the parent's state): the add button is disabled and says why. */
  createDisabledReason?: string | null;
  /** Inputs of the add form the screen gives itself. */
  createOverrides?: Record<string, FieldOverride>;
}) {
  const { field } = parentOf(decl);
  return (
    <ListBase
      resource={decl.name}
      filter={{ [field]: parentId }}
      sort={decl.defaultSort}
      perPage={25}
      disableSyncWithLocation
      storeKey={false}
    >
      <ChildListBody
        decl={decl}
        parentId={parentId}
        columns={columns}
        header={header}
        cells={cells}
        onCreated={onCreated}
        createDisabledReason={createDisabledReason}
        createOverrides={createOverrides}
        rowActions={rowActions}
      />
    </ListBase>
  );
}

/**
 * On a phone, each record of the list in context is a card of label–value lines with its buttons below (a table would
 * put the buttons past the screen's edge, inside its sideways scroll): a parent's children, or any short list a
 * screen shows as a table on a wider one.
 */
export function RecordCards({
  decl,
  fields,
  cells,
  actions,
}: {
  decl: ResourceDeclaration;
  fields: ResourceDeclaration['fields'];
  cells?: Record<string, ReactNode>;
  /** Each card's buttons (default: a child's, its actions and Edit). */
  actions?: ReactNode;
}) {
  const { data } = useListContext();
  return (
    <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {(data ?? []).map((record) => (
        <RecordContextProvider key={record.id} value={record}>
          <Card component="li" variant="outlined">
            <CardContent sx={{ pb: 0 }}>
              <Box
                component="dl"
                sx={{
                  m: 0,
                  display: 'grid',
                  gridTemplateColumns: 'minmax(6rem, auto) 1fr',
                  columnGap: 1,
                  rowGap: 0.5,
                  '& dd': { m: 0, minWidth: 0, overflowWrap: 'anywhere' },
                }}
              >
                {fields.map((f) => (
                  <Fragment key={f.source}>
                    <Typography component="dt" variant="body2" color="text.secondary">
                      {f.label}
                    </Typography>
                    <Typography component="dd" variant="body2">
                      {cells?.[f.source] ?? <FieldFor of={f} />}
                    </Typography>
                  </Fragment>
                ))}
              </Box>
            </CardContent>
            <CardActions sx={{ flexWrap: 'wrap' }}>{actions ?? <RowButtons decl={decl} />}</CardActions>
          </Card>
        </RecordContextProvider>
      ))}
    </Stack>
  );
}

function ChildListBody({
  decl,
  parentId,
  columns,
  header,
  cells,
  onCreated,
  createDisabledReason,
  createOverrides,
  rowActions,
}: {
  decl: ResourceDeclaration;
  parentId: Identifier;
  columns?: string[];
  header?: ReactNode;
  rowActions?: RowActions;
  cells?: Record<string, ReactNode>;
  onCreated?: (saved: RaRecord) => void;
  createDisabledReason?: string | null;
  createOverrides?: Record<string, FieldOverride>;
}) {
  const translate = useTranslate();
  const reasonId = useId();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const { total, isPending } = useListContext();
  const [creating, setCreating] = useState(false);
  const { canAccess: canCreate } = useCanAccess({ resource: decl.name, action: 'create' });
  const { field } = parentOf(decl);
  const fields = columns
    ? columns.map((s) => decl.fields.find((f) => f.source === s)!).filter(Boolean)
    : decl.fields.filter((f) => hasView(f, 'list') && f.source !== field);
  const many = translate(`resources.${decl.name}.name`, { smart_count: 2, _: decl.label.many });
  const one = translate(`resources.${decl.name}.name`, { smart_count: 1, _: decl.label.one });
  return (
    <Box>
      <Stack direction="row" useFlexGap sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap', gap: 1 }}>
        <Box sx={{ flex: '1 1 16rem', minWidth: 0 }}>{header}</Box>
        {canCreate && (
          // A disabled button gets no pointer events: the tooltip sits on a wrapping span.
          <Tooltip title={createDisabledReason ? translate(createDisabledReason, { _: createDisabledReason }) : ''}>
            <Box component="span" sx={{ display: 'inline-flex' }}>
              <Button
                label={translate('app.children.add', { name: one.toLowerCase() })}
                onClick={() => setCreating(true)}
                variant="contained"
                disabled={!!createDisabledReason}
                // Named when disabled too: on a phone react-admin draws a disabled button as a bare icon, unnamed.
                aria-label={translate('app.children.add', { name: one.toLowerCase() })}
                aria-describedby={createDisabledReason ? reasonId : undefined}
              >
                <AddIcon />
              </Button>
              {createDisabledReason && (
                <Typography id={reasonId} variant="caption" color="text.secondary" sx={{ ml: 1, alignSelf: 'center' }}>
                  {translate(createDisabledReason, { _: createDisabledReason })}
                </Typography>
              )}
            </Box>
          </Tooltip>
        )}
      </Stack>
      {!isPending && !total ? (
        <Typography color="text.secondary">{translate('engine.list.empty', { name: many.toLowerCase() })}</Typography>
      ) : (
        <>
          {phone ? (
            <RecordCards decl={decl} fields={fields} cells={cells} />
          ) : (
            <TableScroll nowrap={rowActions === 'menu'}>
              <DataTable bulkActionButtons={false} rowClick={false}>
                {fields.map((f) => (
                  <DataTable.Col key={f.source} source={f.source} label={f.label} disableSort={!f.sortable}>
                    {cells?.[f.source] ?? <FieldFor of={f} />}
                  </DataTable.Col>
                ))}
                <DataTable.Col label="app.children.actions">
                  <RowButtons decl={decl} rowActions={rowActions} />
                </DataTable.Col>
              </DataTable>
            </TableScroll>
          )}
          {!!total && total > 25 && <Pagination rowsPerPageOptions={[25]} />}
        </>
      )}
      {creating && (
        <FormDialog
          title={translate('app.children.add', { name: one.toLowerCase() })}
          onClose={() => setCreating(false)}
        >
          <ChildCreate
            decl={decl}
            parentId={parentId}
            onDone={(saved) => {
              setCreating(false);
              onCreated?.(saved);
            }}
            onCancel={() => setCreating(false)}
            overrides={createOverrides}
          />
        </FormDialog>
      )}
    </Box>
  );
}

/**
 * A child kept as one record per parent (a staff member's preferences): shown as its edit form, and created on
 * the first save.
 */
export function SingleChildForm({ decl, parentId }: { decl: ResourceDeclaration; parentId: Identifier }) {
  const { field } = parentOf(decl);
  const { data, isPending } = useGetList(decl.name, {
    filter: { [field]: parentId },
    pagination: { page: 1, perPage: 1 },
    sort: decl.defaultSort,
  });
  if (isPending) return null;
  const existing = data?.[0];
  return existing ? <ChildEdit decl={decl} id={existing.id} /> : <ChildCreate decl={decl} parentId={parentId} />;
}
