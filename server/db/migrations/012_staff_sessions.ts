// Issue 13, items 8 and 10: staff logins are scoped to their agency, and secret links never sit in stored mail.
export default /* sql */ `
-- A person may work for several agencies: each invites them by the same address, each gets its own staff login.
-- Agency and client logins stay unique per address across agencies.
drop index users_kind_email;
create unique index users_kind_email on users (kind, lower(email)) where kind <> 'staff';
create unique index users_staff_email on users (merchant_id, lower(email)) where kind = 'staff';

-- An invitation's token is made when its e-mail is sent (server/notifications/worker.ts); until then it has none.
alter table staff_invites alter column token_hash drop not null;

-- A message with a single-use link: its stored text and HTML carry a placeholder, and the sender asks the kind's
-- minter (registered in server/notifications/outbox.ts) for the link when it sends it.
alter table email_outbox add column secret_kind text;
alter table email_outbox add column secret_ref integer;
`;
