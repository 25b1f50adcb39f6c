// Diary notes, and support requests with their replies (issue 9). Written from `npm run engine:sql`.
export default /* sql */ `
create table diary_notes (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  title text not null,
  note_at timestamptz not null,
  body text,
  candidate_id integer,
  client_id integer,
  shift_id integer,
  remind_at timestamptz,
  reminded_at timestamptz,
  user_id integer,
  owner_name text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  deleted_at timestamptz,
  search_text text generated always as (lower(title || ' ' || coalesce(body, ''))) stored,
  unique (merchant_id, id),
  foreign key (merchant_id, candidate_id) references candidates (merchant_id, id),
  foreign key (merchant_id, client_id) references clients (merchant_id, id),
  -- A user who leaves keeps their notes in the diary, with their name.
  foreign key (merchant_id, user_id) references users (merchant_id, id) on delete set null (user_id),
  check (remind_at is null or remind_at <= note_at)
);
create index diary_notes_title on diary_notes (merchant_id, lower(title)) where deleted_at is null;
create index diary_notes_note_at on diary_notes (merchant_id, note_at) where deleted_at is null;
create index diary_notes_candidate_id on diary_notes (merchant_id, candidate_id) where deleted_at is null;
create index diary_notes_client_id on diary_notes (merchant_id, client_id) where deleted_at is null;
create index diary_notes_shift_id on diary_notes (merchant_id, shift_id) where deleted_at is null;
create index diary_notes_user_id on diary_notes (merchant_id, user_id, note_at) where deleted_at is null;
create index diary_notes_created on diary_notes (merchant_id, created_at) where deleted_at is null;
create index diary_notes_search on diary_notes using gin (search_text gin_trgm_ops);
-- The reminder job's queue, across agencies: only reminders still to send are in it.
create index diary_notes_due on diary_notes (remind_at) where reminded_at is null and remind_at is not null and deleted_at is null;

alter table diary_notes add constraint diary_notes_shift foreign key (merchant_id, shift_id) references shifts (merchant_id, id);

create table support_requests (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  subject text not null,
  description text not null,
  screenshot text,
  status text not null default 'open' check (status in ('open', 'answered', 'closed')),
  requester_id integer,
  requester_name text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  deleted_at timestamptz,
  search_text text generated always as (lower(subject || ' ' || description)) stored,
  unique (merchant_id, id),
  foreign key (merchant_id, requester_id) references users (merchant_id, id) on delete set null (requester_id)
);
create index support_requests_subject on support_requests (merchant_id, lower(subject)) where deleted_at is null;
create index support_requests_status on support_requests (merchant_id, lower(status)) where deleted_at is null;
create index support_requests_requester_id on support_requests (merchant_id, requester_id) where deleted_at is null;
create index support_requests_created_at on support_requests (merchant_id, created_at) where deleted_at is null;
create index support_requests_search on support_requests using gin (search_text gin_trgm_ops);

create table support_replies (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  support_request_id integer not null,
  body text not null,
  author_id integer,
  author_name text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id),
  foreign key (merchant_id, support_request_id) references support_requests (merchant_id, id),
  foreign key (merchant_id, author_id) references users (merchant_id, id) on delete set null (author_id)
);
create index support_replies_support_request_id on support_replies (merchant_id, support_request_id, created_at);
create index support_replies_created_at on support_replies (merchant_id, created_at);
`;
