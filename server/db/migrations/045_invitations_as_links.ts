// Issue 16, item 8: staff and user invitations become capability links (server/engine/capability.ts). A link's token
// may now be made after the link (when its e-mail is sent), and a link may be withdrawn (replaced by a newer one,
// or its user deactivated). A staff invitation's link is bound to the staff member's sign-in, which is made when they
// are first invited. The invitations still open move over with their token's hash, so links already in mailboxes
// keep working; queued e-mails point at the link that replaces their invitation, or at nothing (never sent).
export default /* sql */ `
alter table capability_links alter column token_hash drop not null;
alter table capability_links add column revoked_at timestamptz;
alter table capability_links add column migrated_invite integer;

insert into capability_links (merchant_id, resource, record_id, action, token_hash, purpose, recipient, delivered_via, expires_at, created_by, created_at, migrated_invite)
select merchant_id, 'users', user_id, 'accept_invitation', token_hash, 'Choose your password and sign in', email, 'email', expires_at, invited_by, created_at, id
  from user_invites where used_at is null and expires_at > now();
update email_outbox o set secret_ref = (
  select l.id from capability_links l where l.resource = 'users' and l.migrated_invite = o.secret_ref
) where o.secret_kind = 'user.invite';

-- The sign-ins of staff members invited who have not chosen a password yet (no password: they cannot sign in).
insert into users (merchant_id, candidate_id, kind, name, email, role)
select distinct on (i.candidate_id) i.merchant_id, i.candidate_id, 'staff', c.first_name || ' ' || c.last_name, lower(i.email), 'staff'
  from staff_invites i
  join candidates c on c.merchant_id = i.merchant_id and c.id = i.candidate_id
 where i.used_at is null and i.expires_at > now()
   and not exists (select 1 from users u where u.candidate_id = i.candidate_id)
   and not exists (select 1 from users u where u.merchant_id = i.merchant_id and u.kind = 'staff' and lower(u.email) = lower(i.email))
 order by i.candidate_id, i.id desc;
insert into capability_links (merchant_id, resource, record_id, action, token_hash, purpose, recipient, delivered_via, expires_at, created_by, created_at, migrated_invite)
select i.merchant_id, 'staff_logins', u.id, 'accept_invitation', i.token_hash, 'Choose your password for your staff page', lower(i.email), 'email', i.expires_at, i.invited_by, i.created_at, i.id
  from staff_invites i
  join users u on u.merchant_id = i.merchant_id and u.candidate_id = i.candidate_id and u.kind = 'staff'
 where i.used_at is null and i.expires_at > now();
update email_outbox o set secret_ref = (
  select l.id from capability_links l where l.resource = 'staff_logins' and l.migrated_invite = o.secret_ref
) where o.secret_kind = 'staff.invite';

alter table capability_links drop column migrated_invite;
drop table staff_invites;
drop table user_invites;

-- No password hash stays in the audit trail, which every agency user reads (the demo's seeded history held its
-- users' hashes): the entry keeps only that a password was set, as the engine now writes it.
alter table audit_log disable trigger audit_log_append_only;
update audit_log
   set changes = jsonb_set(changes, '{password_hash}', jsonb_build_object(
         'from', case when changes->'password_hash'->>'from' is null then null else 'set' end,
         'to', case when changes->'password_hash'->>'to' is null then null else 'set' end))
 where changes ? 'password_hash';
alter table audit_log enable trigger audit_log_append_only;
`;
