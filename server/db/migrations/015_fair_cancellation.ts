// Fair cancellation (issue 14): who asked for a cancellation (the client, the agency, or the worker), the charge the
// client's rule gave when it was cancelled, and the agency's reason when it waived or changed that charge.
export default /* sql */ `
alter table shifts
  add column cancel_requested_by text check (cancel_requested_by in ('client', 'agency', 'worker')),
  add column cancellation_rule_charge bigint check (cancellation_rule_charge >= 0),
  add column cancellation_charge_reason text,
  add column cancellation_charge_changed_by text,
  add constraint shifts_cancellation_charge_positive check (cancellation_charge is null or cancellation_charge >= 0);
`;
