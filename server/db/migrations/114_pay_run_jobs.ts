// Issue 33: a pay run over many staff is a job (server/services/payroll.ts, payRunJob): the run keeps the staff it
// pays (in order), how many are done, its job and when it finished. Runs made before are finished.
export default /* sql */ `
alter table pay_runs
  add column candidates integer[] not null default '{}',
  add column candidates_done integer not null default 0,
  add column job_id integer references jobs(id) on delete set null,
  add column finished_at timestamptz;
update pay_runs set finished_at = created_at;
`;
