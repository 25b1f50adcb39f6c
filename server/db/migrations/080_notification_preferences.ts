// Issue 30.19: each user's own choice of which events reach them (in the bell, by e-mail at once, in a daily digest,
// or not at all), and what waits for each user's digest. The event is not checked against a list here: the
// catalogue (core/domain/notifications/events.ts) grows with later issues, and the engine validates it.
export default /* sql */ `
create table notification_preferences (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  user_id integer not null,
  event text not null,
  in_app boolean not null default true,
  email text not null default 'now' check (email in ('now', 'digest', 'off')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id),
  unique (merchant_id, user_id, event),
  foreign key (merchant_id, user_id) references users (merchant_id, id) on delete cascade
);
create index notification_preferences_event on notification_preferences (merchant_id, event);

-- What waits for a user's daily digest: the e-mails of events they chose to get once a day, as notify() wrote them.
create table notification_digest_items (
  id bigserial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  user_id integer not null references users(id) on delete cascade,
  event text not null,
  title text not null,
  body text not null,
  link text,
  created_at timestamptz not null default now()
);
create index notification_digest_items_user on notification_digest_items (user_id, id);
`;
