// Issue 34: a no-show is recorded as a cancellation that nobody asked for (cancel_requested_by 'no_show'): the booked
// staff member did not turn up. The staff report counts them (docs/decisions.md "Issue 34 — no-shows").
export default /* sql */ `
alter table shifts
  drop constraint shifts_cancel_requested_by_check,
  add constraint shifts_cancel_requested_by_check
    check (cancel_requested_by in ('client', 'agency', 'worker', 'no_show'));
`;
