// Issue 29.4 and 29.10: what a timesheet line and a client-week may be, held by the database itself.
// - A staff member's lines never overlap (paid and charged twice otherwise), as their shifts never do: an exclusion
//   constraint over their actual times, '[)' ranges so an 08:00 end and an 08:00 start do not clash. The lines'
//   hook says it in words first; the constraint holds it against two writes racing.
// - A late line for a client-week whose timesheet was already sent goes on a supplement of it, never on a second
//   timesheet that says nothing of the first: `supplement_of` names the first. (The unique index of one draft per
//   client-week made here is dropped by 061: a withdrawn timesheet and its week's supplement may both be drafts.)
export default /* sql */ `
alter table timesheet_lines add constraint timesheet_lines_no_overlap
  exclude using gist (merchant_id with =, candidate_id with =, tstzrange(actual_start, actual_end) with &&)
  where (actual_start is not null and actual_end is not null);
alter table timesheets add column supplement_of integer,
  add constraint timesheets_supplement_of foreign key (merchant_id, supplement_of) references timesheets (merchant_id, id);
create unique index timesheets_one_draft on timesheets (merchant_id, client_id, coalesce(site_id, 0), kind, period_start, period_end)
  where status = 'draft';
`;
