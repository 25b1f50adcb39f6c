// A line's VAT treatment (issue 32): standard-rated, or exempt under the nursing agencies' concession (HMRC VAT
// Notice 701/57, sections 6.5 and 6.6). The rule reads the agency's election, the job role and the site's care type;
// which fields hold them, and which the invoice work adds, is in docs/decisions.md ("Issue 32.2").

export type VatTreatment = 'standard' | 'exempt';

/**
 * What a job role supplies, as the concession asks (701/57, 6.5):
 * - `nurse`: a registered nurse or midwife (on the NMC register, Nursing and Midwifery Order 2001, art 5);
 * - `supervised_auxiliary`: an unregistered nursing auxiliary placed under the direct supervision of a registered
 *   nurse;
 * - `auxiliary`: an unregistered nursing auxiliary (a healthcare assistant) whose duties include medical as well as
 *   personal care: exempt only when supplied to a hospital, hospice or care home with nursing as part of patients'
 *   care;
 * - `none`: anyone else (a care assistant giving personal care only, a domestic, a dental nurse, an operating
 *   department practitioner): standard-rated.
 */
export type ConcessionRole = 'nurse' | 'supervised_auxiliary' | 'auxiliary' | 'none';
export const CONCESSION_ROLES: readonly ConcessionRole[] = ['nurse', 'supervised_auxiliary', 'auxiliary', 'none'];

/** Where the staff member works, as the concession asks: the institutions of VATA 1994 Sch 9 Group 7 item 4. */
export type CareType = 'hospital' | 'hospice' | 'care_home_nursing' | 'care_home' | 'other';
export const CARE_TYPES: readonly CareType[] = ['hospital', 'hospice', 'care_home_nursing', 'care_home', 'other'];
const NURSING_INSTITUTIONS: readonly CareType[] = ['hospital', 'hospice', 'care_home_nursing'];

/** The site's care type a client's type suggests (the default until the agency sets the site's own). */
export function careTypeOfClientType(clientType: string | null | undefined): CareType {
  switch (clientType) {
    case 'Hospital':
      return 'hospital';
    case 'Nursing home':
      return 'care_home_nursing';
    case 'Care home':
      return 'care_home';
    default:
      return 'other';
  }
}

// HMRC names these two as wrongly exempted by agencies (VAT Health manual VATHLT2360): neither is on the NMC register
// nor a nursing auxiliary, so whatever a role is flagged as, a name that says so is never exempt.
const NEVER_QUALIFY = /\bdental\b|operating department|\bODPs?\b/i;

export interface VatTreatmentInput {
  /** The agency's election: the first day its supplies are exempt under the concession; null when not elected. */
  concessionFrom: string | null;
  /**
   * The day the work was done ('yyyy-MM-dd'): its basic tax point. Whether a supply is exempt is judged on it, not on
   * an invoice date, since an invoice creates no tax point for an exempt supply (HMRC manual VATTOS5210); so a shift
   * worked before the election is never exempt, however soon after it is invoiced.
   */
  suppliedOn: string;
  role: { name: string; concession: ConcessionRole };
  careType: CareType;
}

export interface VatTreatmentDecision {
  treatment: VatTreatment;
  /** Why, in words a reviewer (and the draft's history) can read. */
  reason: string;
}

/** The default treatment of a line, with its reason: 701/57, 6.5 and 6.6, as the agency has elected. */
export function vatTreatmentOf(input: VatTreatmentInput): VatTreatmentDecision {
  const { concessionFrom, suppliedOn, role, careType } = input;
  const standard = (reason: string): VatTreatmentDecision => ({ treatment: 'standard', reason });
  const exempt = (reason: string): VatTreatmentDecision => ({ treatment: 'exempt', reason });
  if (!concessionFrom) return standard('The agency has not elected to use the nursing agencies’ concession.');
  if (suppliedOn < concessionFrom)
    return standard(
      `Supplied on ${suppliedOn}, before the agency’s election to use the concession from ${concessionFrom}.`,
    );
  if (NEVER_QUALIFY.test(role.name))
    return standard(`${role.name}: dental nurses and operating department practitioners never qualify.`);
  switch (role.concession) {
    case 'nurse':
      return exempt('Exempt: a registered nurse supplied by a nursing agency (VAT Notice 701/57, 6.5).');
    case 'supervised_auxiliary':
      return exempt('Exempt: a nursing auxiliary directly supervised by a registered nurse (VAT Notice 701/57, 6.5).');
    case 'auxiliary':
      return NURSING_INSTITUTIONS.includes(careType)
        ? exempt(
            'Exempt: a nursing auxiliary supplied to a hospital, hospice or care home with nursing as part of ' +
              'patients’ care (VAT Notice 701/57, 6.5).',
          )
        : standard('A nursing auxiliary, not supervised by a nurse, at a place without nursing care.');
    case 'none':
      return standard(`${role.name} is not a nurse or nursing auxiliary under the concession.`);
  }
}
