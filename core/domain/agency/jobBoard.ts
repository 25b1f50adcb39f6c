/**
 * The agency's public job board address, /careers/{slug} (issue 35): the slug its admins choose in the agency
 * settings. Plain functions of the text typed, shared by the server's check of a change
 * (server/behaviours/agencySettings.ts) and the unit tests: null when the slug may be taken, else the refusal in words.
 * See docs/decisions.md, "Issue 35 — the job board's address".
 */

/** Its length: 3 to 60 characters (a board of 'ab' reads as a typo; 60 keeps the address printable on a flyer). */
export const JOB_BOARD_SLUG = { min: 3, max: 60 } as const;

/** Lower-case letters and digits in words joined by single hyphens: the shape migration 123 holds merchants.slug to. */
export const JOB_BOARD_SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * Words no agency may take: ones that would read as the product's own pages or another party's (a board at
 * /careers/admin or /careers/support looks official), and the board's own path words.
 */
export const RESERVED_JOB_BOARD_SLUGS: readonly string[] = [
  'admin',
  'api',
  'app',
  'apply',
  'careers',
  'help',
  'jobs',
  'login',
  'official',
  'staff',
  'support',
  'www',
];

/** The board's path for a slug. */
export const jobBoardPath = (slug: string) => `/careers/${slug}`;

/** Why a slug cannot be the agency's job board address, in words; null when it can (taken by another aside). */
export function jobBoardSlugProblem(value: string | null | undefined): string | null {
  const slug = value ?? '';
  if (slug.trim() === '') return 'Give the job board an address.';
  if (slug.length < JOB_BOARD_SLUG.min || slug.length > JOB_BOARD_SLUG.max)
    return `Use ${JOB_BOARD_SLUG.min} to ${JOB_BOARD_SLUG.max} characters.`;
  if (!JOB_BOARD_SLUG_PATTERN.test(slug))
    return 'Use lower-case letters and digits, with single hyphens between words (such as brightway-staffing).';
  if (RESERVED_JOB_BOARD_SLUGS.includes(slug)) return `“${slug}” is kept for the product: choose another address.`;
  return null;
}

/** Said next to the field when another agency's board is at that address. */
export const JOB_BOARD_SLUG_TAKEN = 'Another agency uses this address already: choose another.';
