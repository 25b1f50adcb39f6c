import { useId, useState, type ReactNode } from 'react';
import {
  Box,
  Button as MuiButton,
  Card,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { useWatch } from 'react-hook-form';
import {
  Button,
  DataTable,
  Form,
  Pagination,
  ReferenceManyField,
  SaveButton,
  useCanAccess,
  useCreate,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  usePermissions,
} from 'react-admin';
import { buildResource } from '../../engine/react/buildResource';
import { InputFor } from '../../engine/react/inputs';
import { RecordActions } from '../../engine/react/actions';
import { RecordCards, TableScroll } from '../../engine/react/children';
import { FieldFor } from '../../engine/react/fields';
import { toFormErrors } from '../../engine/react/formErrors';
import { validateRecord } from '../../../core/engine/validate';
import type { FieldDeclaration, ResourceDeclaration } from '../../../core/engine/types';
import { PrivilegesLayout } from '../roles';
import { MakePhoneApprover } from '../timesheets/PhoneApprovers';
import { AGENCY_ROLES, CLIENT_ROLES, USER_ROLES, users } from '../../../core/resources/users/resource';

const field = (source: string) => users.fields.find((f) => f.source === source)!;

/** The roles the signed-in user may give: a consultant never gives Admin. */
function useRoleChoices(panel: 'agency' | 'client' | 'any') {
  const { permissions } = usePermissions();
  const role = (permissions as { role?: string } | undefined)?.role;
  return USER_ROLES.filter((c) => {
    if (panel === 'agency' && !AGENCY_ROLES.includes(c.id as never)) return false;
    if (panel === 'client' && !CLIENT_ROLES.includes(c.id as never)) return false;
    // Admin and the agency's own roles are given by admins only.
    return (c.id !== 'admin' && c.id !== 'custom') || role === 'admin';
  });
}

function RoleInput() {
  const choices = useRoleChoices('any');
  return <InputFor of={{ ...field('role'), choices }} />;
}

/** The client is asked for only when the role is a client's. */
function ClientOfRoleInput() {
  const role = useWatch({ name: 'role' });
  if (!CLIENT_ROLES.includes(role)) return null;
  return <InputFor of={{ ...field('client_id'), required: true }} />;
}

/** Which of the agency's own roles is asked for only when the role is Custom role. */
function AgencyRoleInput() {
  const role = useWatch({ name: 'role' });
  if (role !== 'custom') return null;
  return <InputFor of={{ ...field('agency_role_id'), required: true }} />;
}

// Agency users sit in the settings (the spec's Privileges screen): who signs in, with which role; the agency's own
// roles are beside them (Roles).
export default buildResource(users, {
  wrapper: PrivilegesLayout,
  fields: {
    role: { input: <RoleInput /> },
    client_id: { input: <ClientOfRoleInput /> },
    agency_role_id: { input: <AgencyRoleInput /> },
  },
});

const inviteFields: FieldDeclaration[] = [
  field('name'),
  field('email'),
  { ...field('role'), choices: USER_ROLES.filter((c) => CLIENT_ROLES.includes(c.id as never)) },
];
const inviteDecl: ResourceDeclaration = { ...users, fields: inviteFields, rules: undefined };

/**
 * The people who sign in to a client's panel: invite, resend, deactivate, reactivate. On the client's profile for the
 * agency, and on "My account" for the client's manager, as their colleagues (`title`, `intro`).
 */
export function ClientUsersCard({
  clientId,
  title,
  intro,
  approvers,
}: {
  clientId: number;
  title?: string;
  intro?: string;
  /** With a column saying who signs on staff phones, where the manager makes a colleague an approver. */
  approvers?: boolean;
}) {
  const translate = useTranslate();
  const titleId = useId();
  const { canAccess } = useCanAccess({ resource: 'users', action: 'list' });
  const [inviting, setInviting] = useState(false);
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const columns = ['name', 'email', 'role', 'status', ...(approvers ? ['phone_approver'] : [])].map(field);
  const cells: Record<string, ReactNode> | undefined = approvers
    ? { phone_approver: <PhoneApproverCell clientId={clientId} /> }
    : undefined;
  if (!canAccess) return null;
  return (
    <Card sx={{ mt: 2 }} component="section" aria-labelledby={titleId}>
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography id={titleId} variant="h6" component="h2" sx={{ flex: 1 }}>
            {title ?? translate('app.users.client_users', { _: 'Client panel users' })}
          </Typography>
          <InviteButton onClick={() => setInviting(true)} />
        </Box>
        {intro && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {intro}
          </Typography>
        )}
        <ReferenceManyField
          // The client's id given, not read from a record in context: "My account" has none.
          record={{ id: clientId }}
          reference="users"
          target="client_id"
          sort={{ field: 'name', order: 'ASC' }}
          perPage={10}
          pagination={<Pagination />}
          empty={
            <Typography color="text.secondary">
              {translate('app.users.no_client_users', {
                _: 'Nobody signs in to this client\u2019s panel yet. Invite its manager.',
              })}
            </Typography>
          }
        >
          {phone ? (
            <RecordCards decl={users} fields={columns} cells={cells} actions={<RecordActions decl={users} />} />
          ) : (
            <TableScroll>
              <DataTable bulkActionButtons={false} rowClick={false}>
                <DataTable.Col label={translate('app.users.actions', { _: 'Actions' })}>
                  <RecordActions decl={users} />
                </DataTable.Col>
                {columns.map((f) => (
                  <DataTable.Col key={f.source} source={f.source} label={f.label}>
                    {cells?.[f.source] ?? <FieldFor of={f} />}
                  </DataTable.Col>
                ))}
              </DataTable>
            </TableScroll>
          )}
        </ReferenceManyField>
        {inviting && <InviteClientUserDialog clientId={clientId} onClose={() => setInviting(false)} />}
      </CardContent>
    </Card>
  );
}

/** Whether a colleague signs on staff phones; for one who may and does not yet, the manager's button to make them. */
function PhoneApproverCell({ clientId }: { clientId: number }) {
  const record = useRecordContext();
  const notify = useNotify();
  const refresh = useRefresh();
  const { canAccess } = useCanAccess({ resource: 'timesheet_approvers', action: 'create' });
  if (!record) return null;
  if (record.phone_approver) return <FieldFor of={field('phone_approver')} />;
  if (!canAccess || record.status === 'inactive') return null;
  return (
    <MakePhoneApprover
      colleague={{ id: Number(record.id), name: String(record.name) }}
      clientId={clientId}
      onSaved={(message) => {
        notify(message, { type: 'info' });
        refresh();
      }}
    />
  );
}

function InviteButton({ onClick }: { onClick: () => void }) {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: 'users', action: 'create' });
  if (!canAccess) return null;
  return (
    <MuiButton startIcon={<PersonAddIcon />} onClick={onClick}>
      {translate('app.users.invite_client_user', { _: 'Invite a user' })}
    </MuiButton>
  );
}

function InviteClientUserDialog({ clientId, onClose }: { clientId: number; onClose: () => void }) {
  const translate = useTranslate();
  const titleId = useId();
  const [create] = useCreate();
  const notify = useNotify();
  const refresh = useRefresh();
  const title = translate('app.users.invite_client_user', { _: 'Invite a user' });
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <Form
        record={{ role: 'manager' }}
        noValidate
        validate={(values: Record<string, any>) => toFormErrors(validateRecord(inviteDecl, values))}
        onSubmit={async (values: Record<string, any>) => {
          try {
            await create('users', { data: { ...values, client_id: clientId } }, { returnPromise: true });
          } catch (e: any) {
            if (e?.body?.errors) return e.body.errors;
            notify(e?.message || 'ra.notification.http_error', { type: 'error' });
            return undefined;
          }
          notify(translate('app.users.invited', { _: 'Invitation e-mailed to %{email}.', email: values.email }), {
            type: 'info',
          });
          refresh();
          onClose();
          return undefined;
        }}
      >
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          <Typography sx={{ mb: 2 }}>
            {translate('app.users.invite_intro', {
              _: 'They receive an e-mail with a link to choose their password (it works once, for 7 days), then sign in to this client\u2019s panel.',
            })}
          </Typography>
          {inviteFields.map((f) => (
            <InputFor key={f.source} of={f} />
          ))}
        </DialogContent>
        <DialogActions>
          <Button label="ra.action.cancel" onClick={onClose} />
          <SaveButton label={title} icon={<PersonAddIcon />} alwaysEnable />
        </DialogActions>
      </Form>
    </Dialog>
  );
}
