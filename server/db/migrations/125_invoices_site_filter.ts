// Issue 34, the client dashboard of one site: the invoices list's new site filter (the invoices made for one site of a
// client invoiced per site), found without reading the agency's whole table.
export default /* sql */ `
create index invoices_site_id on invoices (merchant_id, site_id) where site_id is not null;
`;
