// Gapless number series per agency (issue 16, item 4): a resource declaring `numbering` takes its next number from
// its series' row in the create's own transaction, so a rolled-back create takes none and concurrent creates queue
// on the row. The number only moves forward: the check keeps it positive, the route refuses lowering it.
export default /* sql */ `
create table number_series (
  merchant_id integer not null references merchants(id) on delete cascade,
  series text not null,
  prefix text not null default '',
  next_number integer not null default 1 check (next_number >= 1),
  updated_at timestamptz not null default now(),
  primary key (merchant_id, series)
);
`;
