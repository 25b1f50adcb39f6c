// Issue 35, the application form's fields: the agency's staff detail fields it marks to be asked on its application
// form (`on_application`), answered in the application's own custom fields and carried to the staff member a hire
// makes (the same definitions, so the same keys).
export default /* sql */ `
alter table staff_detail_fields add column on_application boolean not null default false;
-- The form's fields are the agency's definitions filtered by it (server/engine/customFields.ts, and the screens' list).
create index staff_detail_fields_on_application on staff_detail_fields (merchant_id, on_application);
alter table job_applications add column custom_fields jsonb not null default '{}'::jsonb;
`;
