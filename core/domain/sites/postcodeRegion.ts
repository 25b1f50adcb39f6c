/**
 * The bank-holiday region of a UK postcode, from its area (the letters before the first digit): Scottish areas
 * price Scottish bank holidays, BT Northern Irish ones, every other area England & Wales'. A few Scottish-lettered
 * districts lie in England (TD12, TD15 are Berwick-upon-Tweed and around), so the
 * district is checked where the border runs through an area (TD12 and TD15). Null when the text is not a UK postcode's
 * start.
 */
export type SiteRegion = 'england_wales' | 'scotland' | 'northern_ireland';

const SCOTTISH_AREAS = new Set([
  'AB',
  'DD',
  'DG',
  'EH',
  'FK',
  'G',
  'HS',
  'IV',
  'KA',
  'KW',
  'KY',
  'ML',
  'PA',
  'PH',
  'TD',
  'ZE',
]);
/** Districts of Scottish-lettered areas that are in England. */
const ENGLISH_DISTRICTS = new Set(['TD12', 'TD15']);

export function regionOfPostcode(postcode: string | null | undefined): SiteRegion | null {
  const m = /^([A-Z]{1,2})\d/.exec(
    String(postcode ?? '')
      .toUpperCase()
      .replace(/\s+/g, ''),
  );
  if (!m) return null;
  const area = m[1];
  if (area === 'BT') return 'northern_ireland';
  // "TD1" vs "TD12": the outward code is area + district, without the inward part's leading digit.
  const outward = postcodeOutward(String(postcode));
  if (SCOTTISH_AREAS.has(area)) return outward && ENGLISH_DISTRICTS.has(outward) ? 'england_wales' : 'scotland';
  return 'england_wales';
}

/** The outward code ("IV2" of "IV2 3AB", "TD15" of "TD15 1AA"); null when the text does not hold a whole postcode. */
function postcodeOutward(postcode: string): string | null {
  const compact = postcode.toUpperCase().replace(/\s+/g, '');
  const m = /^([A-Z]{1,2}\d[A-Z\d]?)(\d[A-Z]{2})$/.exec(compact);
  return m ? m[1] : null;
}
