// Issue 32: an invoice run over many clients is a job (server/services/invoicing.ts, invoiceRun): the run keeps the
// clients it bills (in order), how many are done, its job and when it finished. Runs made before are finished.
export default /* sql */ `
alter table invoice_runs
  add column clients integer[] not null default '{}',
  add column clients_done integer not null default 0,
  add column job_id integer references jobs(id) on delete set null,
  add column finished_at timestamptz;
update invoice_runs set finished_at = created_at;
`;
