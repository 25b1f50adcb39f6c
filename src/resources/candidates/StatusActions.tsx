import CheckIcon from '@mui/icons-material/Check';
import BlockIcon from '@mui/icons-material/Block';
import PowerIcon from '@mui/icons-material/Power';
import PowerOffIcon from '@mui/icons-material/PowerOff';
import { Button, useListContext, useNotify, useRecordContext, useRefresh, useUnselectAll, useUpdate, useUpdateMany, useCanAccess } from 'react-admin';

/** The four staff decisions; each is a partial update the API merges into the record. */
export const STAFF_ACTIONS = {
  approve: { label: 'app.staff.approve', data: { status: 'approved' }, icon: <CheckIcon />, allowed: (r: any) => r.status !== 'approved' },
  reject: { label: 'app.staff.reject', data: { status: 'rejected', activated: false }, icon: <BlockIcon />, allowed: (r: any) => r.status !== 'rejected' },
  activate: { label: 'app.staff.activate', data: { activated: true }, icon: <PowerIcon />, allowed: (r: any) => r.status === 'approved' && !r.activated },
  deactivate: { label: 'app.staff.deactivate', data: { activated: false }, icon: <PowerOffIcon />, allowed: (r: any) => !!r.activated },
} as const;
type ActionName = keyof typeof STAFF_ACTIONS;

/** Approve / Reject / Activate / Deactivate for the staff member on screen. */
export function StaffStatusButtons() {
  const record = useRecordContext();
  const notify = useNotify();
  const [update, { isPending }] = useUpdate();
  const { canAccess } = useCanAccess({ resource: 'candidates', action: 'edit' });
  if (!record || !canAccess) return null;
  const run = (name: ActionName) =>
    update(
      'candidates',
      { id: record.id, data: STAFF_ACTIONS[name].data, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => notify(`app.staff.done.${name}`, { type: 'success', messageArgs: { smart_count: 1 } }),
        onError: (e: any) => notify(e?.body?.errors ? Object.values(e.body.errors).join(' ') : e?.message ?? 'ra.notification.http_error', { type: 'error' }),
      },
    );
  return (
    <>
      {(Object.keys(STAFF_ACTIONS) as ActionName[])
        .filter((n) => STAFF_ACTIONS[n].allowed(record))
        .map((n) => (
          <Button key={n} label={STAFF_ACTIONS[n].label} onClick={() => run(n)} disabled={isPending}>
            {STAFF_ACTIONS[n].icon}
          </Button>
        ))}
    </>
  );
}

/** The same decisions for the staff selected in a list. */
export function StaffBulkStatusButtons() {
  const { selectedIds, data } = useListContext();
  const notify = useNotify();
  const refresh = useRefresh();
  const unselectAll = useUnselectAll('candidates');
  const [updateMany, { isPending }] = useUpdateMany();
  const selected = (data ?? []).filter((r) => selectedIds.includes(r.id));
  const run = (name: ActionName) => {
    const ids = selected.filter(STAFF_ACTIONS[name].allowed).map((r) => r.id);
    if (ids.length === 0) return notify('app.staff.nothing_to_change', { type: 'info' });
    updateMany(
      'candidates',
      { ids, data: STAFF_ACTIONS[name].data },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify(`app.staff.done.${name}`, { type: 'success', messageArgs: { smart_count: ids.length } });
          unselectAll();
          refresh();
        },
        onError: (e: any) => notify(e?.message ?? 'ra.notification.http_error', { type: 'error' }),
      },
    );
  };
  return (
    <>
      {(Object.keys(STAFF_ACTIONS) as ActionName[]).map((n) => (
        <Button key={n} label={STAFF_ACTIONS[n].label} onClick={() => run(n)} disabled={isPending}>
          {STAFF_ACTIONS[n].icon}
        </Button>
      ))}
    </>
  );
}
