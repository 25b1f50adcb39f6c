/** The agency's trading name: 2 to 120 characters once trimmed (the sign-in, e-mails and documents show it). */
export const AGENCY_NAME = { min: 2, max: 120 } as const;
