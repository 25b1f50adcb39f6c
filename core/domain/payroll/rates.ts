// Every payroll rate, threshold and band, one dated row per tax year (issue 33: "the code has no year's figures in
// it"). Each figure's source is cited in docs/payroll-rates.md; a new tax year is a new row here and a new section
// there, never a change to the rules in this folder. Money is in pence, rates in basis points of a percent
// (2000 is 20%), so every rule works in integers.

/** A tax year as people write it: '2026-27' runs from 6 April 2026 to 5 April 2027. */
export type TaxYear = '2025-26' | '2026-27';

/** How often a staff member is paid: the periods the tables are published for. */
export type Frequency = 'weekly' | 'monthly';

/** Where a staff member pays income tax: the rest of the UK (England and Northern Ireland), Scotland (S codes) or
 * Wales (C codes). */
export type TaxRegion = 'uk' | 'scotland' | 'wales';

/** One income tax band: its rate, and the annual taxable pay (after the allowance) it reaches; null for the top. */
export interface TaxBand {
  rate: number;
  upTo: number | null;
}

export interface IncomeTaxTable {
  /** Lowest band first; the top band has upTo null. */
  bands: TaxBand[];
  /** The band that code BR (SBR, CBR) taxes all pay at; D0 (SD0, CD0) is the band after it, D1 the next, ... */
  basicBand: number;
}

/** The Class 1 thresholds of one pay period, in pence. */
export interface NiThresholds {
  /** Lower earnings limit: pay from here counts for the staff member's record, though nothing is paid below PT. */
  lel: number;
  /** Primary threshold: the staff member pays from here. */
  pt: number;
  /** Secondary threshold: the employer pays from here. */
  st: number;
  /** Upper earnings limit: the staff member's rate drops to the upper rate above it. */
  uel: number;
  /** Upper secondary thresholds: under-21s (M, Z), apprentices under 25 (H), veterans (V). */
  ust: number;
  aust: number;
  vust: number;
}

/** What one National Insurance category letter pays. */
export interface NiCategory {
  /** The staff member's rate from PT to UEL, and above UEL. */
  employeeMain: number;
  employeeUpper: number;
  /** The employer's rate above ST. */
  employer: number;
  /** The employer's relief: 0% from ST up to this threshold (under 21, apprentice, veteran), the rate above it. */
  employerReliefUpTo?: 'ust' | 'aust' | 'vust';
}

export type NiLetter = 'A' | 'B' | 'C' | 'H' | 'J' | 'M' | 'V' | 'X' | 'Z';

export type LoanPlan = 'plan1' | 'plan2' | 'plan4' | 'plan5' | 'postgraduate';

export interface LoanPlanRow {
  /** The annual repayment threshold in pence; a pay period's is its 1/52 or 1/12, rounded down to the penny. */
  annualThreshold: number;
  rate: number;
}

/** Auto-enrolment's earnings figures for one pay period (The Pensions Regulator's table), in pence. */
export interface PensionThresholds {
  /** Lower and upper levels of qualifying earnings. */
  lower: number;
  upper: number;
  /** Pay above which a worker must be enrolled (shown to the caller; enrolment itself is the agency's). */
  trigger: number;
}

export interface PayrollYear {
  taxYear: TaxYear;
  /** First and last day, yyyy-MM-dd. */
  starts: string;
  ends: string;
  incomeTax: Record<TaxRegion, IncomeTaxTable>;
  /** The most tax one period may take under a K code, as basis points of that period's pay. */
  regulatoryLimit: number;
  ni: { thresholds: Record<Frequency, NiThresholds>; categories: Record<NiLetter, NiCategory> };
  /** Only the plans that are collected in the year: plan 5 starts in 2026-27. */
  studentLoans: Partial<Record<LoanPlan, LoanPlanRow>>;
  pension: Record<Frequency, PensionThresholds>;
  /** Rolled-up holiday pay for irregular-hours and part-year workers (leave years from 1 April 2024). */
  rolledUpHolidayPay: number;
}

const pounds = (n: number) => n * 100;

// The UK (England and Northern Ireland) bands, and Wales's: the Senedd set every Welsh rate at 10p for both years,
// which gives the same rates as England's.
const UK_BANDS: IncomeTaxTable = {
  bands: [
    { rate: 2000, upTo: pounds(37_700) },
    { rate: 4000, upTo: pounds(125_140) },
    { rate: 4500, upTo: null },
  ],
  basicBand: 0,
};

// Class 1 categories: the rates are the same in both years (8% and 2%, 15% for the employer from April 2025).
const NI_CATEGORIES: Record<NiLetter, NiCategory> = {
  A: { employeeMain: 800, employeeUpper: 200, employer: 1500 },
  B: { employeeMain: 185, employeeUpper: 200, employer: 1500 },
  C: { employeeMain: 0, employeeUpper: 0, employer: 1500 },
  H: { employeeMain: 800, employeeUpper: 200, employer: 1500, employerReliefUpTo: 'aust' },
  J: { employeeMain: 200, employeeUpper: 200, employer: 1500 },
  M: { employeeMain: 800, employeeUpper: 200, employer: 1500, employerReliefUpTo: 'ust' },
  V: { employeeMain: 800, employeeUpper: 200, employer: 1500, employerReliefUpTo: 'vust' },
  X: { employeeMain: 0, employeeUpper: 0, employer: 0 },
  Z: { employeeMain: 200, employeeUpper: 200, employer: 1500, employerReliefUpTo: 'ust' },
};

const PENSION_2025_TO_2027: Record<Frequency, PensionThresholds> = {
  weekly: { lower: pounds(120), upper: pounds(967), trigger: pounds(192) },
  monthly: { lower: pounds(520), upper: pounds(4_189), trigger: pounds(833) },
};

export const PAYROLL_YEARS: Record<TaxYear, PayrollYear> = {
  '2025-26': {
    taxYear: '2025-26',
    starts: '2025-04-06',
    ends: '2026-04-05',
    incomeTax: {
      uk: UK_BANDS,
      wales: UK_BANDS,
      scotland: {
        bands: [
          { rate: 1900, upTo: pounds(2_827) },
          { rate: 2000, upTo: pounds(14_921) },
          { rate: 2100, upTo: pounds(31_092) },
          { rate: 4200, upTo: pounds(62_430) },
          { rate: 4500, upTo: pounds(125_140) },
          { rate: 4800, upTo: null },
        ],
        basicBand: 1,
      },
    },
    regulatoryLimit: 5000,
    ni: {
      thresholds: {
        weekly: {
          lel: pounds(125),
          pt: pounds(242),
          st: pounds(96),
          uel: pounds(967),
          ust: pounds(967),
          aust: pounds(967),
          vust: pounds(967),
        },
        monthly: {
          lel: pounds(542),
          pt: pounds(1_048),
          st: pounds(417),
          uel: pounds(4_189),
          ust: pounds(4_189),
          aust: pounds(4_189),
          vust: pounds(4_189),
        },
      },
      categories: NI_CATEGORIES,
    },
    studentLoans: {
      plan1: { annualThreshold: pounds(26_065), rate: 900 },
      plan2: { annualThreshold: pounds(28_470), rate: 900 },
      plan4: { annualThreshold: pounds(32_745), rate: 900 },
      postgraduate: { annualThreshold: pounds(21_000), rate: 600 },
    },
    pension: PENSION_2025_TO_2027,
    rolledUpHolidayPay: 1207,
  },
  '2026-27': {
    taxYear: '2026-27',
    starts: '2026-04-06',
    ends: '2027-04-05',
    incomeTax: {
      uk: UK_BANDS,
      wales: UK_BANDS,
      // The Scottish Budget of 13 January 2026: the starter and basic bands widened, the rest unchanged.
      scotland: {
        bands: [
          { rate: 1900, upTo: pounds(3_967) },
          { rate: 2000, upTo: pounds(16_956) },
          { rate: 2100, upTo: pounds(31_092) },
          { rate: 4200, upTo: pounds(62_430) },
          { rate: 4500, upTo: pounds(125_140) },
          { rate: 4800, upTo: null },
        ],
        basicBand: 1,
      },
    },
    regulatoryLimit: 5000,
    ni: {
      thresholds: {
        weekly: {
          lel: pounds(129),
          pt: pounds(242),
          st: pounds(96),
          uel: pounds(967),
          ust: pounds(967),
          aust: pounds(967),
          vust: pounds(967),
        },
        monthly: {
          lel: pounds(559),
          pt: pounds(1_048),
          st: pounds(417),
          uel: pounds(4_189),
          ust: pounds(4_189),
          aust: pounds(4_189),
          vust: pounds(4_189),
        },
      },
      categories: NI_CATEGORIES,
    },
    studentLoans: {
      plan1: { annualThreshold: pounds(26_900), rate: 900 },
      plan2: { annualThreshold: pounds(29_385), rate: 900 },
      plan4: { annualThreshold: pounds(33_795), rate: 900 },
      plan5: { annualThreshold: pounds(25_000), rate: 900 },
      postgraduate: { annualThreshold: pounds(21_000), rate: 600 },
    },
    pension: PENSION_2025_TO_2027,
    rolledUpHolidayPay: 1207,
  },
};

export const TAX_YEARS = Object.keys(PAYROLL_YEARS) as TaxYear[];

/** The year's row, or undefined for a year the product has no figures for. */
export const payrollYear = (taxYear: string): PayrollYear | undefined =>
  Object.hasOwn(PAYROLL_YEARS, taxYear) ? PAYROLL_YEARS[taxYear as TaxYear] : undefined;

/** Pay periods in a year at each frequency. */
export const PERIODS: Record<Frequency, number> = { weekly: 52, monthly: 12 };
