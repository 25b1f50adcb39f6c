// Issue 35, roles limited to business units: the units an agency role's holders see the rows of (empty: every unit),
// read with the role's privileges on every session look-up (server/auth/sessions.ts). A unit a role names cannot be
// deleted (the engine's references rule), since dropping it from the list would widen the role to every unit.
export default /* sql */ `
alter table agency_roles add column business_unit_ids integer[] not null default '{}';
create trigger agency_roles_business_unit_ids_agency before insert or update of business_unit_ids on agency_roles
  for each row execute function check_agency_array_refs('business_unit_ids', 'business_units');
`;
