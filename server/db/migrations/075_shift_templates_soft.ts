// Issue 31.1: a closed shift is locked, so deleting the shift template it was made from can no longer clear its
// template_id. The template is hidden instead (soft delete): closed shifts keep naming the template they were made
// from, and its name is free for a new one.
export default /* sql */ `
alter table shift_templates add column deleted_at timestamptz;
drop index shift_templates_name_unique;
create unique index shift_templates_name_unique on shift_templates (merchant_id, lower(name)) where deleted_at is null;
`;
