// Issue 30.6: a timesheet line whose pay rates differ from its shift's as booked says why (repricingNote in
// core/domain/pricing/repricing.ts), written when the line is priced.
export default /* sql */ `
alter table timesheet_lines add column repricing_note text;
`;
