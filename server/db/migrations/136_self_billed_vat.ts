// Issue 33, VAT on self-billed pay: an umbrella or limited-company worker's company, when VAT-registered, is paid
// VAT on top of the gross, at the standard rate in force on the pay day, and its self-billed invoice says so.
// - candidates.company_address: the supplier's address a self-billed invoice carries (VAT Notice 700/62).
// - payslips: the company's number, address and VAT number as they were when the run paid it (a finalised run never
//   reads the staff record again), the VAT rate (basis points) and VAT, and what the run pays (net pay + VAT).
//   Payslips made before this paid no VAT: what they paid is their net; their company number is copied from the
//   staff record as the self-billing export read it until now, their VAT number left empty (no VAT was charged).
// - pay_runs.vat: the sum of its payslips' VAT (a rollup), beside gross, net and employer costs.
export default /* sql */ `
alter table candidates add column company_address text;
alter table payslips
  add column company_number text,
  add column company_address text,
  add column vat_number text,
  add column vat_rate integer check (vat_rate is null or vat_rate >= 0),
  add column vat bigint not null default 0,
  add column amount_paid bigint not null default 0;
update payslips p set amount_paid = p.net,
       company_number = case when p.paye then null else c.company_number end
  from candidates c where c.merchant_id = p.merchant_id and c.id = p.candidate_id;
alter table pay_runs add column vat bigint not null default 0;
`;
