// Money travels and is stored in integer pence; these are the only ways it turns into pounds, so every screen,
// message and export reads the same: '£1,234.56', '-£1.50'.

const digits = new Intl.NumberFormat('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * Pence as people read money: 123456 → '£1,234.56', -150 → '-£1.50'. A fraction of a penny rounds half away from
 * zero, the same way for debits and credits, and an amount that rounds to nothing has no sign.
 */
export function formatPounds(pence: number): string {
  const whole = Math.round(Math.abs(pence));
  return `${pence < 0 && whole > 0 ? '-' : ''}£${digits.format(whole / 100)}`;
}

/** Pence as a number of pounds, for what sums or edits it (a CSV cell, a form's input): 1250 → 12.5. */
export const penceToPounds = (pence: number) => Math.round(pence) / 100;
