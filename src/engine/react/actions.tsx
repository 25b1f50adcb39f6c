import { useId, useState, type ReactElement, type ReactNode } from 'react';
import {
  Box,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
  Tooltip,
  Typography,
} from '@mui/material';
import type { SxProps, Theme } from '@mui/material/styles';
import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import BlockIcon from '@mui/icons-material/Block';
import PowerIcon from '@mui/icons-material/Power';
import PowerOffIcon from '@mui/icons-material/PowerOff';
import VerifiedIcon from '@mui/icons-material/Verified';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import DeleteIcon from '@mui/icons-material/Delete';
import PersonRemoveIcon from '@mui/icons-material/PersonRemove';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import OpenWithIcon from '@mui/icons-material/OpenWith';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import EventBusyIcon from '@mui/icons-material/EventBusy';
import PriceChangeIcon from '@mui/icons-material/PriceChange';
import DrawIcon from '@mui/icons-material/Draw';
import EditCalendarIcon from '@mui/icons-material/EditCalendar';
import EditNoteIcon from '@mui/icons-material/EditNote';
import LockIcon from '@mui/icons-material/Lock';
import PinIcon from '@mui/icons-material/Pin';
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import ReportIcon from '@mui/icons-material/Report';
import ScheduleIcon from '@mui/icons-material/Schedule';
import SendIcon from '@mui/icons-material/Send';
import UndoIcon from '@mui/icons-material/Undo';
import {
  AutocompleteArrayInput,
  Button,
  Confirm,
  Form,
  SaveButton,
  required,
  useCanAccess,
  useGetList,
  useDataProvider,
  useListContext,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  useUnselectAll,
  type RaRecord,
} from 'react-admin';
import type { ActionDeclaration, FieldDeclaration, ResourceDeclaration } from '../../../core/engine/types';
import { declarations } from '../../../core/resources/declarations';
import { validateRecord } from '../../../core/engine/validate';
import { actionRefusal } from '../../../core/engine/lifecycle';
import { InputFor } from './inputs';
import { useLinesRefusal } from './lines';
import { toFormErrors } from './formErrors';
import { transformUploads } from './form';
import { UploadFailure } from './files';
import type { RunActionParams } from '../../providers/dataProvider';
import { visuallyHidden } from '../../theme';

/** The icons a declaration's action may name (ActionDeclaration.icon); anything else shows a generic one. */
export const ACTION_ICONS: Record<string, ReactElement> = {
  account_balance: <AccountBalanceIcon />,
  check: <CheckIcon />,
  block: <BlockIcon />,
  power: <PowerIcon />,
  power_off: <PowerOffIcon />,
  verified: <VerifiedIcon />,
  delete: <DeleteIcon />,
  person_remove: <PersonRemoveIcon />,
  task_alt: <TaskAltIcon />,
  restart_alt: <RestartAltIcon />,
  open_with: <OpenWithIcon />,
  person_add: <PersonAddIcon />,
  event_busy: <EventBusyIcon />,
  price_change: <PriceChangeIcon />,
  draw: <DrawIcon />,
  edit_calendar: <EditCalendarIcon />,
  edit_note: <EditNoteIcon />,
  lock: <LockIcon />,
  pin: <PinIcon />,
  play_arrow: <PlayArrowIcon />,
  playlist_add: <PlaylistAddIcon />,
  report: <ReportIcon />,
  schedule: <ScheduleIcon />,
  send: <SendIcon />,
  undo: <UndoIcon />,
};

/** How a record is named in confirmations: its declaration's recordRepresentation. */
export const recordName = (decl: ResourceDeclaration, record: Record<string, any>) =>
  decl.recordRepresentation.replace(/%\{(\w+)\}/g, (_, k) => String(record?.[k] ?? '')).trim() || `#${record?.id}`;

const textKey = (decl: ResourceDeclaration, action: ActionDeclaration, what: 'label' | 'success' | 'confirm') =>
  `resources.${decl.name}.actions.${action.name}.${what}`;

/** Runs one declared action, on one record or on several, and reports the outcome the same way everywhere. */
function useRunAction(decl: ResourceDeclaration, action: ActionDeclaration) {
  const dataProvider = useDataProvider() as ReturnType<typeof useDataProvider> & {
    runAction(resource: string, p: RunActionParams): Promise<{ data: any }>;
  };
  const notify = useNotify();
  // Refreshing invalidates every query: the record, the lists, and what is derived from it (compliance, history).
  const refresh = useRefresh();
  const [running, setRunning] = useState(false);
  /** Resolves to whether it worked and, for a 422 on the action's inputs, the field errors for the dialog's form. */
  const run = async (
    target: { id?: RaRecord['id']; ids?: RaRecord['id'][] },
    input: Record<string, unknown> = {},
    count = 1,
  ): Promise<{ ok: boolean; errors?: Record<string, string>; message?: string }> => {
    setRunning(true);
    try {
      await dataProvider.runAction(decl.name, { ...target, action: action.name, input });
      notify(textKey(decl, action, 'success'), {
        type: 'success',
        messageArgs: { smart_count: count, _: action.success },
      });
      refresh();
      return { ok: true };
    } catch (e: any) {
      const errors: Record<string, string> | undefined = e?.body?.errors;
      const inputs = new Set((action.input ?? []).map((f) => f.source));
      // Field errors of the action's own inputs stay next to those inputs; anything else is said aloud.
      if (e?.status === 422 && errors && Object.keys(errors).some((k) => inputs.has(k)))
        return { ok: false, errors, message: e?.message };
      notify(e?.message || 'ra.notification.http_error', { type: 'error', messageArgs: { _: e?.message } });
      return { ok: false };
    } finally {
      setRunning(false);
    }
  };
  return { run, running };
}

/** The server's refusal of an action's input (422 naming its inputs): the field errors and its message. */
interface Refusal {
  errors: Record<string, string>;
  message?: string;
}
const refusal = (r: { errors?: Record<string, string>; message?: string }): Refusal | undefined =>
  r.errors ? { errors: r.errors, message: r.message } : undefined;

/**
 * A references input whose choices are the children of the record the action runs on (FieldDeclaration.options):
 * read once, and filtered as the user types.
 */
function ChildChoicesInput({ field, record, label }: { field: FieldDeclaration; record: RaRecord; label: string }) {
  const target = declarations.find((d) => d.name === field.reference)!;
  const { data, isPending } = useGetList(field.reference!, {
    filter: { [field.options!.parent]: record.id, ...field.options!.filter },
    sort: target.defaultSort,
    pagination: { page: 1, perPage: 100 },
  });
  return (
    <AutocompleteArrayInput
      source={field.source}
      label={label}
      choices={data ?? []}
      isPending={isPending}
      optionText={(r: RaRecord) => recordName(target, r)}
      helperText={false}
      validate={field.required ? required() : undefined}
    />
  );
}

/**
 * The dialog of an action that asks for input: its inputs (validated like fields), the confirmation text if any, and a
 * submit. Labels may name the record's fields (%{unsigned_lines}); a chosen file is uploaded to the file store and
 * the action gets its id.
 */
function InputDialog({
  decl,
  action,
  record,
  title,
  question,
  onClose,
  onSubmit,
}: {
  decl: ResourceDeclaration;
  action: ActionDeclaration;
  /** The record it runs on (none in bulk). */
  record?: RaRecord;
  title: string;
  question?: string;
  onClose: () => void;
  onSubmit: (values: Record<string, unknown>) => Promise<Record<string, string> | undefined>;
}) {
  const translate = useTranslate();
  const titleId = useId();
  // The action's inputs as a small declaration, so the form validates them with the same rules as the server.
  const asDecl: ResourceDeclaration = { ...decl, fields: action.input ?? [], rules: undefined };
  // Inputs start empty (a reason is never the record's), unless the action starts from the record's current values.
  const start =
    action.prefill && record
      ? Object.fromEntries(
          (action.input ?? []).filter((f) => f.source in record).map((f) => [f.source, record[f.source]]),
        )
      : {};
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <Form
        record={start}
        noValidate
        validate={(values: Record<string, any>) => toFormErrors(validateRecord(asDecl, values))}
        onSubmit={async (values: Record<string, any>) => {
          let input: Record<string, unknown>;
          try {
            input = await transformUploads(asDecl)(values);
          } catch (e) {
            if (e instanceof UploadFailure) return { [e.field]: e.message };
            throw e;
          }
          const errors = await onSubmit(input);
          if (!errors) onClose();
          return errors;
        }}
      >
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          {question && <Typography sx={{ mb: 2 }}>{question}</Typography>}
          {(action.input ?? []).map((f) => {
            const label = translate(`resources.${decl.name}.actions.${action.name}.fields.${f.source}`, {
              _: f.label,
              ...record,
            });
            return f.options && record ? (
              <ChildChoicesInput key={f.source} field={f} record={record} label={label} />
            ) : (
              <InputFor key={f.source} of={f} label={label} />
            );
          })}
        </DialogContent>
        <DialogActions>
          {/* With its icon: on a phone react-admin shows a button's icon only, and a Cancel without one vanished. */}
          <Button label="ra.action.cancel" onClick={onClose}>
            <CloseIcon />
          </Button>
          <SaveButton
            label={title}
            icon={ACTION_ICONS[action.icon ?? ''] ?? <PlayArrowIcon />}
            alwaysEnable
            color={action.danger ? 'error' : 'primary'}
          />
        </DialogActions>
      </Form>
    </Dialog>
  );
}

/** Shows an action as an item of a row's actions menu instead of a button; `onChosen` closes the menu. */
export interface AsMenuItem {
  onChosen: () => void;
}

/**
 * One action's button with its dialogs: a confirmation where declared, an input dialog where the action asks for
 * input, or a direct run. `disabledReason` (a message key) disables it and says why, in a tooltip and to screen
 * readers. As a menu item the reason is the item's second line; the dialogs stay here, so the menu must keep its
 * items mounted while closed (ChildList's row menu does).
 */
function ActionButton({
  decl,
  action,
  record,
  name,
  count,
  disabledReason,
  onRun,
  running,
  asMenuItem,
}: {
  decl: ResourceDeclaration;
  action: ActionDeclaration;
  asMenuItem?: AsMenuItem;
  /**
   * The one record acted on (none in bulk): its confirmDetail sentence is added to the question, and its input
   * dialog may start from it and name its fields.
   */
  record?: RaRecord;
  /** How the target is named in the confirmation. */
  name: string;
  count: number;
  disabledReason?: string | null;
  onRun: (input?: Record<string, unknown>) => Promise<Refusal | undefined>;
  running: boolean;
}) {
  const translate = useTranslate();
  const reasonId = useId();
  const [open, setOpen] = useState(false);
  /** Why the server asked for the input (an action whose input is asked for only when needed). */
  const [asked, setAsked] = useState<string>();
  const label = translate(textKey(decl, action, 'label'), { _: action.label });
  const detail = record && action.confirmDetail?.(record);
  const question =
    asked ??
    (action.confirm
      ? [
          translate(textKey(decl, action, 'confirm'), { _: action.confirm, name, smart_count: count }),
          detail ? translate(detail, { ...record, _: detail }) : '',
        ]
          .filter(Boolean)
          .join(' ')
      : undefined);
  const icon = ACTION_ICONS[action.icon ?? ''] ?? <PlayArrowIcon />;
  const onDemand = !!action.inputWhenNeeded && !action.confirm;
  const needsDialog = (!!action.input?.length && !onDemand) || !!action.confirm;
  const runFirst = async () => {
    const refused = await onRun();
    if (refused) {
      setAsked(refused.message);
      setOpen(true);
    }
  };
  const start = () => (needsDialog ? setOpen(true) : void (onDemand ? runFirst() : onRun()));
  const reasonText = disabledReason ? translate(disabledReason, { _: disabledReason }) : undefined;
  const button = asMenuItem ? (
    <MenuItem
      data-action={action.name}
      disabled={!!disabledReason || running}
      onClick={() => {
        asMenuItem.onChosen();
        start();
      }}
    >
      <ListItemIcon sx={{ color: action.danger ? 'error.main' : 'primary.main' }}>{icon}</ListItemIcon>
      <ListItemText
        primary={label}
        secondary={reasonText}
        // The reason wraps under the label (a menu is narrow) rather than widening the menu past a phone.
        slotProps={{ secondary: { sx: { whiteSpace: 'normal', maxWidth: '20rem' } } }}
      />
    </MenuItem>
  ) : (
    <Button
      label={label}
      onClick={start}
      disabled={!!disabledReason || running}
      color={action.danger ? 'error' : 'primary'}
      // react-admin names an icon-only (phone) button only while it is enabled.
      aria-label={label}
      aria-describedby={disabledReason ? reasonId : undefined}
    >
      {icon}
    </Button>
  );
  if (disabledReason && asMenuItem) return button;
  if (disabledReason) {
    const reason = reasonText;
    return (
      // A disabled button gets no pointer events: the tooltip sits on a wrapping span.
      <Tooltip title={reason}>
        <Box component="span" sx={{ display: 'inline-flex' }} data-action={action.name}>
          {button}
          <Box component="span" id={reasonId} sx={visuallyHidden}>
            {reason}
          </Box>
        </Box>
      </Tooltip>
    );
  }
  return (
    <>
      {asMenuItem ? (
        button
      ) : (
        <Box component="span" sx={{ display: 'inline-flex' }} data-action={action.name}>
          {button}
        </Box>
      )}
      {open && action.input?.length ? (
        <InputDialog
          decl={decl}
          action={action}
          record={record}
          title={label}
          question={question}
          onClose={() => {
            setOpen(false);
            setAsked(undefined);
          }}
          onSubmit={async (values) => (await onRun(values))?.errors}
        />
      ) : null}
      {open && !action.input?.length ? (
        <Confirm
          isOpen
          title={label}
          content={question ?? ''}
          confirm={label}
          confirmColor={action.danger ? 'warning' : 'primary'}
          loading={running}
          onClose={() => setOpen(false)}
          onConfirm={async () => {
            setOpen(false);
            await onRun();
          }}
        />
      ) : null}
    </>
  );
}

/** One record action, shown only to those the declaration allows to run it. */
function RecordActionButton({
  decl,
  action,
  record,
  asMenuItem,
}: {
  decl: ResourceDeclaration;
  action: ActionDeclaration;
  record: RaRecord;
  asMenuItem?: AsMenuItem;
}) {
  const { canAccess } = useCanAccess({ resource: decl.name, action: action.name, record });
  const { run, running } = useRunAction(decl, action);
  // A line of a document also waits for its document's state (the same rule the server refuses with).
  const lineLock = useLinesRefusal(decl, record, action.deletes ? undefined : action.name);
  if (!canAccess) return null;
  return (
    <ActionButton
      decl={decl}
      action={action}
      record={record}
      name={recordName(decl, record)}
      count={1}
      disabledReason={actionRefusal(decl, action, record) ?? lineLock}
      running={running}
      asMenuItem={asMenuItem}
      onRun={async (input) => refusal(await run({ id: record.id }, input, 1))}
    />
  );
}

/**
 * The declared actions of one record (the record in context unless given), one button each. A collection action
 * (a timesheet generation) runs on no record: its screen offers it, never a record's toolbar.
 */
export function RecordActions({
  decl,
  record: given,
  asMenuItems,
}: {
  decl: ResourceDeclaration;
  record?: RaRecord;
  /** As items of a row's actions menu (ChildList rowActions="menu"). */
  asMenuItems?: AsMenuItem;
}) {
  const fromContext = useRecordContext();
  const record = given ?? fromContext;
  // An action no role runs (the server's own, or a history entry's name) gets no button.
  const actions = (decl.actions ?? []).filter((a) => !a.collection && a.roles.length > 0);
  if (!record || !actions.length) return null;
  return (
    <>
      {actions.map((a) => (
        <RecordActionButton key={a.name} decl={decl} action={a} record={record} asMenuItem={asMenuItems} />
      ))}
    </>
  );
}

/**
 * A record's actions in one menu behind a "more" button named for the record, with `more(close)` items after them
 * (a row's Edit). The menu keeps its items mounted while closed because each item owns its dialog (ActionButton's),
 * which must outlive the menu.
 */
export function RecordActionsMenu({
  decl,
  record,
  buttonSx,
  more,
}: {
  decl: ResourceDeclaration;
  record: RaRecord;
  buttonSx?: SxProps<Theme>;
  more?: (close: () => void) => ReactNode;
}) {
  const translate = useTranslate();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const label = translate('app.children.actions_for', { name: recordName(decl, record) });
  return (
    <>
      <IconButton
        aria-label={label}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
        size="small"
        sx={buttonSx}
      >
        <MoreVertIcon />
      </IconButton>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={!!anchor}
        onClose={close}
        keepMounted
        // A disabled item stays reachable by the arrow keys, so its reason is read out too.
        slotProps={{ list: { disabledItemsFocusable: true, 'aria-label': label } }}
      >
        <RecordActions decl={decl} record={record} asMenuItems={{ onChosen: close }} />
        {more?.(close)}
      </Menu>
    </>
  );
}

function BulkActionButton({ decl, action }: { decl: ResourceDeclaration; action: ActionDeclaration }) {
  const translate = useTranslate();
  const { selectedIds } = useListContext();
  const unselectAll = useUnselectAll(decl.name);
  const { canAccess } = useCanAccess({ resource: decl.name, action: action.name });
  const { run, running } = useRunAction(decl, action);
  if (!canAccess || !selectedIds?.length) return null;
  const count = selectedIds.length;
  const name = `${count} ${translate(`resources.${decl.name}.name`, { smart_count: count, _: decl.label.many }).toLowerCase()}`;
  return (
    <ActionButton
      decl={decl}
      action={action}
      name={name}
      count={count}
      running={running}
      onRun={async (input) => {
        // All or nothing: the selection stays when the server refuses, so it can be corrected and retried.
        const outcome = await run({ ids: selectedIds }, input, count);
        if (outcome.ok) unselectAll();
        return refusal(outcome);
      }}
    />
  );
}

/** The list's bulk bar: one button per bulk action the user may run, over the selected records. */
export function BulkActions({ decl }: { decl: ResourceDeclaration }) {
  return (
    <>
      {(decl.actions ?? [])
        .filter((a) => a.bulk)
        .map((a) => (
          <BulkActionButton key={a.name} decl={decl} action={a} />
        ))}
    </>
  );
}
