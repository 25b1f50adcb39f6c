// Issue 35: the job board's address (/careers/{slug}) is one of the agency's settings, changed on its settings screen
// like its trading name: kept on the agency_settings row, which the engine validates, versions and audits, and copied
// to merchants.slug (where the board and its uniqueness across agencies live) by the row's behaviour.
export default /* sql */ `
alter table agency_settings add column slug text check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$');
update agency_settings s set slug = m.slug from merchants m where m.id = s.merchant_id;
`;
