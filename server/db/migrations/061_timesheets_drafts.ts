// Issue 29.10: migration 060's unique index of one draft per client-week is dropped. A timesheet withdrawn from the
// client goes back to draft (issue 29.8) while the week's supplement may be a draft too: both are legitimate, and
// the index would refuse the withdrawal. Generation still never makes a second draft of a week: it joins the draft
// there is, and runs of an agency take turns (an advisory lock, server/services/timesheets.ts).
export default /* sql */ `
drop index timesheets_one_draft;
`;
