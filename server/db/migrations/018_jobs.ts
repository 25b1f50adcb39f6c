// Background jobs with progress (issue 16 item 6): one queue for work a screen starts and follows (a generation
// run, a large document), claimed by any server process, and one lease row per periodic job so that several
// processes on one database run each periodic job once per interval.
export default /* sql */ `
create table jobs (
  id serial primary key,
  merchant_id integer not null references merchants(id),
  kind text not null,
  payload jsonb not null default '{}'::jsonb,
  status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed')),
  -- Progress: steps done of total (null until the handler knows it).
  done integer not null default 0,
  total integer,
  -- The handler's place between steps, committed with each step's work.
  state jsonb not null default '{}'::jsonb,
  attempts integer not null default 0,
  max_attempts integer not null default 5,
  run_after timestamptz not null default now(),
  locked_by text,
  locked_until timestamptz,
  result jsonb,
  error text,
  created_by integer references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  finished_at timestamptz
);
-- What a worker claims: unfinished jobs by the time they may run.
create index jobs_due on jobs (run_after, id) where status in ('queued', 'running');
create index jobs_merchant on jobs (merchant_id, id);

create table periodic_leases (
  name text primary key,
  locked_by text,
  locked_until timestamptz,
  last_run_at timestamptz
);
`;
