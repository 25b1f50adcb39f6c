/**
 * The agency's identifiers as UK registers issue them (issue 35, agency settings). Plain functions of the text typed,
 * shared by the declaration's rules (both sides) and the unit tests: null when the value may be kept, else the
 * refusal in words. Empty is always allowed here (the fields are optional; a new agency fills them in later).
 */

/**
 * A Companies House company number: 8 characters, either 8 digits (England and Wales, leading zeros kept) or a
 * two-letter prefix and 6 digits (SC Scotland, NI Northern Ireland, OC an LLP, ...), or R plus 7 digits (a Northern
 * Ireland company registered before partition). Spaces and case are forgiven as typed.
 */
export const COMPANY_NUMBER_WORDS =
  'Enter the 8-character company number from Companies House, such as 01234567 or SC123456.';
export function companyNumberProblem(value: string | null | undefined): string | null {
  const plain = normaliseCompanyNumber(value);
  if (plain === '') return null;
  return /^(?:[0-9]{8}|[A-Z]{2}[0-9]{6}|R[0-9]{7})$/.test(plain) ? null : COMPANY_NUMBER_WORDS;
}
export const normaliseCompanyNumber = (value: string | null | undefined) =>
  (value ?? '').replace(/\s+/g, '').toUpperCase();

/**
 * A UK VAT registration number: GB and 9 digits, or GB and 12 (a branch of a group: the 9 and a 3-digit branch
 * code), spaces as HMRC prints them ('GB 123 4567 89') allowed. Government departments' and health authorities'
 * GBGD/GBHA numbers are not an agency's, and XI (Northern Ireland's goods trade) is not a staffing agency's either.
 * No check-digit test: HMRC's modulus rules have two generations and a wrong digit is caught by HMRC's own lookup.
 */
export const VAT_NUMBER_WORDS = 'Enter the VAT number as GB and 9 digits (GB 123 4567 89), or GB and 12 digits.';
export function vatNumberProblem(value: string | null | undefined): string | null {
  const plain = (value ?? '').replace(/\s+/g, '').toUpperCase();
  if (plain === '') return null;
  return /^GB(?:[0-9]{9}|[0-9]{12})$/.test(plain) ? null : VAT_NUMBER_WORDS;
}

/** The IANA time zones the runtime knows (the product's dates are read in one of them: @date-fns/tz). */
let zones: string[] | undefined;
export function ianaTimeZones(): string[] {
  // UTC is an IANA zone that some runtimes list only under its alias Etc/UTC.
  zones ??= [...new Set([...Intl.supportedValuesOf('timeZone'), 'Europe/London', 'UTC'])].sort();
  return zones;
}
export const TIME_ZONE_WORDS = 'Choose a time zone from the list, such as Europe/London.';
/**
 * Whether a time zone is one of the runtime's list (ianaTimeZones), as named there: a zone the runtime reads only
 * under an alias ('Europe/Kyiv' where ICU lists 'Europe/Kiev') is refused in words rather than stored twice named.
 */
export const timeZoneProblem = (value: string | null | undefined): string | null =>
  value && ianaTimeZones().includes(value) ? null : TIME_ZONE_WORDS;

/**
 * The line a company's invoices and letters carry (Company, LLP and Business (Names and Trading Disclosures)
 * Regulations 2015, regs 24–25): its registered name, where it is registered and its number; the place follows
 * from the number's prefix (SC and SO Scotland, NI, NC and R Northern Ireland, any other England and Wales). Null
 * without a legal name; the name alone without a number.
 */
export function registrationLine(legalName: string | null | undefined, companyNumber: string | null | undefined) {
  const name = (legalName ?? '').trim();
  if (!name) return null;
  const number = normaliseCompanyNumber(companyNumber);
  if (!number) return name;
  const place = /^(SC|SO|SL)/.test(number)
    ? 'Scotland'
    : /^(NI|NC|NF|R[0-9])/.test(number)
      ? 'Northern Ireland'
      : 'England and Wales';
  return `${name}, registered in ${place}, company number ${number}`;
}
