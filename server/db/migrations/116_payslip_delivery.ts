// Issue 33: each payslip is e-mailed to its staff member when its run is finalised, its kept PDF attached. The payslip
// keeps the address it went to (none: not sent, said on the run); the outbox row carrying it is found by its
// attachment (the payslip's kept copy), which this index makes a lookup rather than a scan of the agency's mail.
export default /* sql */ `
alter table payslips add column emailed_to text;
create index email_outbox_attachments on email_outbox using gin (attachments);
`;
