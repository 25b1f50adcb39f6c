// Issue 33: the self-billing agreements' list sorts by reference, which a list orders caseless (lower(reference)):
// 141 indexed the dates and the staff member but not this, so that sort read every agreement of the agency.
export default /* sql */ `
create index self_billing_agreements_reference on self_billing_agreements (merchant_id, lower(reference));
`;
