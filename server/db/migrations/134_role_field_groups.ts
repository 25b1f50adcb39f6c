// Issue 35, users and privileges: the guarded field groups (pay rates, margins, bank details) became privileges a
// role is granted one by one. Before, a custom role read pay rates and margins always (what both built-in agency
// roles read), so every role made before keeps reading them; bank details it never read, so it gains nothing.
export default /* sql */ `
update agency_roles
   set privileges = privileges || array(
         select g from unnest(array['fields.pay_rates', 'fields.margins']) g where not g = any(privileges));
`;
