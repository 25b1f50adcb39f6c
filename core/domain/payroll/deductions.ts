// Staff deductions and one-off adjustments on a payslip (issue 33: /appsetting/staff-deduction, StaffPayrollViewEdit).
// Two plain rules: how much of a deduction is due in a pay period (its dates, its cap, once for a one-off), and how
// the amounts due are taken without leaving net pay below zero (docs/decisions.md, "Issue 33 — deductions").
import { basisPointsOf } from '../../engine/money';

export interface StaffDeduction {
  id: number;
  description: string;
  /** 'fixed': `amount` is pence a period; 'percent': `amount` is basis points of the period's gross pay. */
  method: 'fixed' | 'percent';
  amount: number;
  /** Off pay before tax (a net pay arrangement: taxable pay only, never NI-able pay); otherwise off net pay. */
  beforeTax: boolean;
  recurring: boolean;
  /** The first and last day it applies to (yyyy-MM-dd), the last open when null. */
  start: string;
  end: string | null;
  /** The most it ever takes, in pence (a uniform loan): the last instalment is cut to it. */
  cap: number | null;
  /** What earlier payslips took (those of cancelled runs left out), in pence, and how many took any. */
  taken: number;
  times: number;
}

/** A pay run's period: its first day and its last, the pay day. */
export interface PayPeriod {
  start: string;
  end: string;
}

/**
 * How much of a deduction is due in this period before the net floor, in pence: nothing outside its dates (it applies
 * to a period that ends on or after its start and starts on or before its end); a percentage of the period's gross
 * rounded down (never a penny more than the percentage); never beyond what its cap leaves. A one-off is due in the
 * first period it applies to, and a fixed one-off stays due until all of it is taken (the net floor may have cut it);
 * a percentage one-off is due once.
 */
export function deductionDue(d: StaffDeduction, period: PayPeriod, gross: number): number {
  if (d.start > period.end || (d.end != null && d.end < period.start)) return 0;
  if (!d.recurring && d.method === 'percent' && d.times > 0) return 0;
  const wanted = d.method === 'fixed' ? d.amount : basisPointsOf(Math.max(0, gross), d.amount, 'down');
  const limits = [d.cap, !d.recurring && d.method === 'fixed' ? d.amount : null].filter((x): x is number => x != null);
  const left = limits.length ? Math.max(0, Math.min(...limits) - d.taken) : Infinity;
  return Math.max(0, Math.min(wanted, left));
}

/** An amount due, keyed by the caller (a deduction or an adjustment), in the order it is to be taken. */
export interface Due {
  key: string;
  beforeTax: boolean;
  amount: number;
}

export interface Settled {
  /** What is taken of each amount due (the same keys, in order): never more than due, never below zero. */
  taken: { key: string; amount: number }[];
  beforeTax: number;
  afterTax: number;
  /** Net pay once everything taken is off. */
  net: number;
}

/**
 * Takes the amounts due without making net pay negative. `netOf(b)` is net pay after tax, NI, student loan and pension
 * when `b` pence come off taxable pay (less tax, so more net). Before-tax amounts are taken first, cut while the net
 * they leave would be below zero (a pound at a time at least, as tax moves in whole pounds of taxable pay); then
 * after-tax amounts, in order, from what net is left. A net already below zero without deductions takes nothing.
 */
export function settleDeductions(due: readonly Due[], netOf: (beforeTax: number) => number): Settled {
  const sum = (xs: readonly Due[]) => xs.reduce((s, d) => s + d.amount, 0);
  let before = sum(due.filter((d) => d.beforeTax));
  let left = netOf(before) - before;
  while (left < 0 && before > 0) {
    before = Math.max(0, before - Math.max(-left, 100));
    left = netOf(before) - before;
  }
  let beforeRoom = before;
  let afterRoom = Math.max(0, left);
  const taken = due.map((d) => {
    const room = d.beforeTax ? beforeRoom : afterRoom;
    const amount = Math.max(0, Math.min(d.amount, room));
    if (d.beforeTax) beforeRoom -= amount;
    else afterRoom -= amount;
    return { key: d.key, amount };
  });
  const afterTax = taken.reduce((s, t, i) => s + (due[i].beforeTax ? 0 : t.amount), 0);
  return { taken, beforeTax: before, afterTax, net: left - afterTax };
}
