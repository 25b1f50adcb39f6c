// Issue 34, the business unit report: a business unit gains a manager (an agency user), and clients and agency users
// belong to a unit (each optional). As npm run engine:sql writes them from the declarations; a unit referred to is
// archived, not deleted (the engine refuses the delete, and so do these keys).
export default /* sql */ `
alter table business_units add column manager_id integer;
alter table business_units add foreign key (merchant_id, manager_id) references users (merchant_id, id);
create index business_units_manager_id on business_units (merchant_id, manager_id);

alter table clients add column business_unit_id integer;
alter table clients add foreign key (merchant_id, business_unit_id) references business_units (merchant_id, id);
create index clients_business_unit_id on clients (merchant_id, business_unit_id) where deleted_at is null;

alter table users add column business_unit_id integer;
alter table users add foreign key (merchant_id, business_unit_id) references business_units (merchant_id, id);
create index users_business_unit_id on users (merchant_id, business_unit_id);
`;
