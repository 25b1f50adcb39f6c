// Issue 9, communication. Two sections, each owned by one part of the issue; each pushes its SQL onto
// `sections`, above the export at the end of the file.
const sections: string[] = [];

// ===================================================================================================
// Section 1: notifications, the e-mail outbox, the embedded mailbox, SMS/push outbox, notification
// settings and templates (server/notifications/*).
// ===================================================================================================
sections.push(/* sql */ `
-- A notification belongs to one audience: the agency (client_id and candidate_id null), one client's users
-- (client_id), one staff member (candidate_id); user_id narrows it to one user of that audience.
-- Read state is per notification: an audience shares one inbox, and "mark all read" clears it for all of it.
alter table notifications
  add column client_id integer,
  add column candidate_id integer,
  add column user_id integer,
  add column event text,
  add column data jsonb not null default '{}'::jsonb,
  add constraint notifications_agency_id unique (merchant_id, id),
  add constraint notifications_client_agency foreign key (merchant_id, client_id) references clients (merchant_id, id),
  add constraint notifications_candidate_agency foreign key (merchant_id, candidate_id) references candidates (merchant_id, id),
  add constraint notifications_user_agency foreign key (merchant_id, user_id) references users (merchant_id, id) on delete cascade;
drop index notifications_merchant;
drop index notifications_unread;
-- The first page of each audience walks one of these, newest first.
create index notifications_agency_page on notifications (merchant_id, created_at desc, id desc) where client_id is null and candidate_id is null;
create index notifications_client_page on notifications (merchant_id, client_id, created_at desc, id desc) where client_id is not null;
create index notifications_candidate_page on notifications (merchant_id, candidate_id, created_at desc, id desc) where candidate_id is not null;
-- "Mark all read" touches the unread ones only.
create index notifications_unread on notifications (merchant_id, client_id) where not read;

-- Counting a million notifications on every page load costs more than the page: the totals are kept as
-- deltas, appended by statement triggers (never a hot row that concurrent writers queue on) and folded
-- together by the background worker (compactNotificationCounts).
create table notification_counts (
  merchant_id integer not null references merchants(id) on delete cascade,
  client_id integer not null default 0,
  candidate_id integer not null default 0,
  user_id integer not null default 0,
  total integer not null,
  unread integer not null
);
create index notification_counts_audience on notification_counts (merchant_id, client_id, candidate_id, user_id);

create function notifications_counted_insert() returns trigger language plpgsql as $$
begin
  insert into notification_counts (merchant_id, client_id, candidate_id, user_id, total, unread)
  select merchant_id, coalesce(client_id, 0), coalesce(candidate_id, 0), coalesce(user_id, 0), count(*), count(*) filter (where not read)
    from new_rows group by 1, 2, 3, 4;
  return null;
end $$;
create function notifications_counted_delete() returns trigger language plpgsql as $$
begin
  insert into notification_counts (merchant_id, client_id, candidate_id, user_id, total, unread)
  select merchant_id, coalesce(client_id, 0), coalesce(candidate_id, 0), coalesce(user_id, 0), -count(*), -count(*) filter (where not read)
    from old_rows group by 1, 2, 3, 4;
  return null;
end $$;
create function notifications_counted_update() returns trigger language plpgsql as $$
begin
  insert into notification_counts (merchant_id, client_id, candidate_id, user_id, total, unread)
  select d.merchant_id, d.client_id, d.candidate_id, d.user_id, sum(d.total), sum(d.unread) from (
    select merchant_id, coalesce(client_id, 0) as client_id, coalesce(candidate_id, 0) as candidate_id, coalesce(user_id, 0) as user_id,
           -1 as total, case when read then 0 else -1 end as unread from old_rows
    union all
    select merchant_id, coalesce(client_id, 0), coalesce(candidate_id, 0), coalesce(user_id, 0), 1, case when read then 0 else 1 end from new_rows
  ) d group by 1, 2, 3, 4 having sum(d.total) <> 0 or sum(d.unread) <> 0;
  return null;
end $$;
create trigger notifications_counted_insert after insert on notifications referencing new table as new_rows for each statement execute function notifications_counted_insert();
create trigger notifications_counted_delete after delete on notifications referencing old table as old_rows for each statement execute function notifications_counted_delete();
create trigger notifications_counted_update after update on notifications referencing old table as old_rows new table as new_rows for each statement execute function notifications_counted_update();
insert into notification_counts (merchant_id, client_id, candidate_id, user_id, total, unread)
  select merchant_id, 0, 0, 0, count(*), count(*) filter (where not read) from notifications group by merchant_id;

-- An event with a dedupe key is notified once (a document's 30-day reminder), however often the job runs.
create table notification_dedupe (
  merchant_id integer not null references merchants(id) on delete cascade,
  dedupe_key text not null,
  created_at timestamptz not null default now(),
  primary key (merchant_id, dedupe_key)
);

-- Per event: which channels are used and who receives them. No row: the catalogue's defaults (events.ts).
create table notification_settings (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  event text not null,
  channels text[] not null default '{}',
  recipients text[] not null default '{}',
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (merchant_id, id),
  unique (merchant_id, event)
);

-- The agency's wording of an event's e-mail. No row: the catalogue's default template.
create table notification_templates (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  event text not null,
  subject text not null,
  body text not null,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (merchant_id, id),
  unique (merchant_id, event)
);

-- Payment reminders (the ActivatePayment tab), for the invoices of a later issue.
create table notification_payment_settings (
  merchant_id integer primary key references merchants(id) on delete cascade,
  enabled boolean not null default false,
  days_before_due integer not null default 3 check (days_before_due between 0 and 60),
  days_after_due integer not null default 7 check (days_after_due between 0 and 90),
  version integer not null default 1,
  updated_at timestamptz not null default now()
);

-- E-mail to send. The worker claims due rows (FOR UPDATE SKIP LOCKED), pushing next_attempt_at ahead as a
-- lease, so a crashed sender's mail goes out later rather than never.
create table email_outbox (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  recipient text not null,
  recipient_name text,
  subject text not null,
  text text not null,
  html text not null,
  event text not null,
  status text not null default 'queued' check (status in ('queued', 'sent', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_error text,
  sent_at timestamptz,
  message_id text,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  search_text text generated always as (lower(recipient)) stored,
  unique (merchant_id, id)
);
create index email_outbox_due on email_outbox (next_attempt_at, id) where status = 'queued';
create index email_outbox_created_at on email_outbox (merchant_id, created_at desc, id desc);
create index email_outbox_status on email_outbox (merchant_id, status, created_at desc);
create index email_outbox_event on email_outbox (merchant_id, event, created_at desc);
create index email_outbox_recipient on email_outbox (merchant_id, lower(recipient));
create index email_outbox_search on email_outbox using gin (search_text gin_trgm_ops);

-- SMS and push messages, handed to their drivers. The bundled driver records them without sending.
create table message_outbox (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  channel text not null check (channel in ('sms', 'push')),
  recipient text not null,
  recipient_name text,
  body text not null,
  event text not null,
  status text not null default 'recorded' check (status in ('recorded', 'sent', 'failed')),
  driver text not null,
  created_at timestamptz not null default now(),
  unique (merchant_id, id)
);
create index message_outbox_created_at on message_outbox (merchant_id, channel, created_at desc);

-- What the embedded SMTP server received (the demo's and the tests' mail server): what would have been sent.
create table mailbox (
  id serial primary key,
  merchant_id integer references merchants(id) on delete cascade,
  outbox_id integer,
  envelope_from text,
  envelope_to text[] not null default '{}',
  subject text,
  text text,
  html text,
  message_id text,
  size integer not null default 0,
  received_at timestamptz not null default now()
);
create index mailbox_received on mailbox (merchant_id, received_at desc, id desc);
create index mailbox_outbox on mailbox (outbox_id);

-- Daily jobs run once per agency-day in the agency's time zone: the last day each one ran for each agency.
create table agency_job_runs (
  merchant_id integer not null references merchants(id) on delete cascade,
  job text not null,
  last_day date not null,
  primary key (merchant_id, job)
);
`);

// ===================================================================================================
// Section 2: chat with staff and the staff sign-in (server/chat/*, server/auth/*).
// ===================================================================================================
// One channel per staff member and agency; its sid is random, so one sid never leads to another. Each side (the
// agency's users together, the staff member) keeps how far it has read, for unread counts.
sections.push(/* sql */ `
create table chat_channels (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  candidate_id integer not null,
  channel_sid text not null unique,
  last_message_id integer,
  last_message_at timestamptz,
  agency_read_id integer not null default 0,
  staff_read_id integer not null default 0,
  created_at timestamptz not null default now(),
  unique (merchant_id, id),
  unique (merchant_id, candidate_id),
  foreign key (merchant_id, candidate_id) references candidates (merchant_id, id) on delete cascade
);
-- The conversation list: latest first (a channel without messages sorts by when it was opened).
create index chat_channels_latest on chat_channels (merchant_id, (coalesce(last_message_at, created_at)) desc, id desc);

create table chat_messages (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  channel_id integer not null,
  sender_type text not null check (sender_type in ('Candidate', 'Merchant')),
  sender_user_id integer references users(id) on delete set null,
  -- The sender's name as it was when sent: the history does not change when a user is renamed or removed.
  sender_name text not null,
  content text not null check (length(content) between 1 and 2000),
  created_at timestamptz not null default now(),
  foreign key (merchant_id, channel_id) references chat_channels (merchant_id, id) on delete cascade
);
create index chat_messages_channel on chat_messages (channel_id, id);
create index chat_messages_merchant on chat_messages (merchant_id, id);

-- The third login type: a staff member's own sign-in, tied to their staff record.
alter table users drop constraint users_kind_check;
alter table users add constraint users_kind_check check (kind in ('admin', 'client', 'staff'));
alter table users add column candidate_id integer;
alter table users add constraint users_staff_candidate foreign key (merchant_id, candidate_id) references candidates (merchant_id, id) on delete cascade;
alter table users add constraint users_staff_has_candidate check ((kind = 'staff') = (candidate_id is not null));
create unique index users_candidate on users (candidate_id) where candidate_id is not null;

-- Invitations to set a staff password: single use, with an expiry; only a hash of the link's token is kept.
create table staff_invites (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  candidate_id integer not null,
  email text not null,
  token_hash text not null unique,
  expires_at timestamptz not null,
  used_at timestamptz,
  invited_by integer references users(id) on delete set null,
  created_at timestamptz not null default now(),
  foreign key (merchant_id, candidate_id) references candidates (merchant_id, id) on delete cascade
);
create index staff_invites_candidate on staff_invites (merchant_id, candidate_id);
`);

export default sections.join('\n');
