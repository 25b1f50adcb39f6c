// Issue 35, interview dates: an application invited to interview keeps when (and, if said, with whom and where), and
// the agency's diary note that shows it on the day, which a reschedule moves. The note is the diary's own record
// (soft-deleted like any diary note), so the reference holds; the
// index serves the interview tab's sort by date.
export default /* sql */ `
alter table job_applications
  add column interview_at timestamptz,
  add column interview_with text,
  add column interview_where text,
  add column interview_note_id integer,
  add foreign key (merchant_id, interview_note_id) references diary_notes (merchant_id, id);
create index job_applications_interview_at on job_applications (merchant_id, interview_at);
`;
