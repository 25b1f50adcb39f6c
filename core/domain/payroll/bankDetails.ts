// A staff member's bank details (issue 33, output): what the agency may enter, how the profile shows them masked,
// and a BACS payment as the bank payments file writes it (BACS Standard 18, CSV layout). Stored sealed by the server
// (server/secrets/sealing.ts); these rules see them only in the clear, never stored.
import { decimalPounds } from '../../engine/money';

/** A sort code as people write it: 12-34-56, 12 34 56 or 123456. */
export const SORT_CODE_PATTERN = '^\\s*\\d{2}[- ]?\\d{2}[- ]?\\d{2}\\s*$';
export const SORT_CODE_MESSAGE = 'Enter the sort code as 6 digits, like 12-34-56.';
/** A UK account number: 8 digits (spaces allowed between them). */
export const ACCOUNT_NUMBER_PATTERN = '^\\s*(\\d\\s*){8}$';
export const ACCOUNT_NUMBER_MESSAGE = 'Enter the account number as 8 digits, like 12345678.';
/**
 * A name on an account: letters (accented ones too), digits, spaces and . & / ' - (the bank file writes it in BACS's
 * characters, bacsText).
 */
export const ACCOUNT_NAME_PATTERN =
  "^[A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F0-9 .&/'\u2019-]*[A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F][A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F0-9 .&/'\u2019-]*$";
export const ACCOUNT_NAME_MESSAGE =
  "Enter the name on the account as the bank has it: letters, digits, spaces and . & / ' -";
/** A building society's roll number goes in the payment's reference: at most 18 of BACS's characters. */
export const ROLL_NUMBER_PATTERN = '^[A-Za-z0-9 ./-]{1,18}$';
export const ROLL_NUMBER_MESSAGE =
  'Enter the roll number as the building society gives it: up to 18 letters, digits, spaces and . / -';

export interface BankDetails {
  /** Six digits, no dashes. */
  sortCode: string;
  /** Eight digits. */
  accountNumber: string;
  accountName: string;
  /** A building society account's roll number; null for a bank account. */
  rollNumber: string | null;
}

const digits = (v: string) => v.replace(/\D/g, '');

/**
 * The details as entered, in the form they are kept in (digits only, names trimmed), or each field's problem in the
 * user's words. The same words as the form's patterns, which check the same rules field by field.
 */
export function readBankDetails(input: {
  sort_code?: unknown;
  account_number?: unknown;
  account_name?: unknown;
  roll_number?: unknown;
}): { value: BankDetails } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const text = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : String(v));
  const sort = text(input.sort_code);
  const account = text(input.account_number);
  const name = text(input.account_name).trim().replace(/\s+/g, ' ');
  const roll = text(input.roll_number).trim();
  if (!new RegExp(SORT_CODE_PATTERN).test(sort)) errors.sort_code = SORT_CODE_MESSAGE;
  if (!new RegExp(ACCOUNT_NUMBER_PATTERN).test(account)) errors.account_number = ACCOUNT_NUMBER_MESSAGE;
  if (!name || name.length > 60 || !new RegExp(ACCOUNT_NAME_PATTERN).test(name))
    errors.account_name = ACCOUNT_NAME_MESSAGE;
  if (roll && !new RegExp(ROLL_NUMBER_PATTERN).test(roll)) errors.roll_number = ROLL_NUMBER_MESSAGE;
  if (Object.keys(errors).length) return { errors };
  return {
    value: { sortCode: digits(sort), accountNumber: digits(account), accountName: name, rollNumber: roll || null },
  };
}

/** A sort code as people read it: 12-34-56. */
export const formatSortCode = (sortCode: string) => sortCode.replace(/^(\d{2})(\d{2})(\d{2})$/, '$1-$2-$3');

/**
 * What the profile shows of them (its last digits only), in words a screen reader reads as they look:
 * "Sort code ending 56, account ending 5678" (", building society roll number held" for one).
 */
export function maskedBankDetails(d: BankDetails): string {
  const roll = d.rollNumber ? ', building society roll number held' : '';
  return `Sort code ending ${d.sortCode.slice(-2)}, account ending ${d.accountNumber.slice(-4)}${roll}`;
}

/** BACS carries at most 18 characters of a name or reference (Standard 18's fields). */
export const BACS_TEXT_LENGTH = 18;

/**
 * A name or reference in BACS's character set: upper case A–Z, 0–9, space and . & / - ; any other character becomes
 * a space (an accented letter its plain one), spaces run together, cut to 18 characters. It starts with a letter or
 * digit, so a spreadsheet never reads it as a formula (and the CSV writer never has to quote it as one).
 */
export function bacsText(text: string, max = BACS_TEXT_LENGTH): string {
  return (
    text
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      // Letters that decompose into no plain one.
      .replace(/[Łł]/g, 'L')
      .replace(/[Øø]/g, 'O')
      .replace(/[Đđ]/g, 'D')
      .replace(/[Ææ]/g, 'AE')
      .replace(/ß/g, 'SS')
      .toUpperCase()
      .replace(/[^A-Z0-9 .&/-]/g, ' ')
      .replace(/\s+/g, ' ')
      .replace(/^[^A-Z0-9]+/, '')
      .slice(0, max)
      .trimEnd()
  );
}

/** The bank payments file's columns, in BACS Standard 18's CSV order. */
export const BACS_HEADER = ['Sort code', 'Account number', 'Account name', 'Amount', 'Reference'];

/**
 * One payment of the bank payments file: the sort code and account number as digits, the name and reference in
 * BACS's characters, the amount in pounds with two decimals. A building society account's roll number is its
 * reference (what the society reads to credit the member); otherwise `reference`.
 */
export function bacsRow(d: BankDetails, amountPence: number, reference: string): string[] {
  if (!Number.isInteger(amountPence) || amountPence <= 0)
    throw new Error(`A BACS payment is a whole number of pence above 0, not ${amountPence}`);
  return [
    d.sortCode,
    d.accountNumber,
    bacsText(d.accountName),
    decimalPounds(amountPence),
    bacsText(d.rollNumber ?? reference),
  ];
}
