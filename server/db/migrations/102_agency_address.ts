// Issue 32.8: the agency's postal address, which a UK VAT invoice prints beside its name and VAT number (VAT
// Regulations 1995 reg 14). It lives with the invoice settings (one row per agency), as the VAT number does.
export default /* sql */ `
alter table invoice_settings add column address jsonb;
`;
