// Issue 35: a client's manager names which of their colleagues (users of the client's panel) are its phone approvers.
// The approver row keeps its own name and PIN; the colleague it is stops signing on phones when deactivated.
export default /* sql */ `
alter table timesheet_approvers add column user_id integer references users (id);
-- One live approver per colleague (a removed approver keeps pointing at them: their signatures stay theirs).
create unique index timesheet_approvers_user on timesheet_approvers (user_id) where deleted_at is null;
`;
