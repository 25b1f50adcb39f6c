// @vitest-environment node
// Only the money module formats or rounds pence (issue 31 item 6). This test reads every source file of the product
// (core/, server/, src/) and fails on a line that turns pence into pounds text, divides a money amount by 100, or
// rounds an amount of money by hand, outside core/engine/money.ts. What looks like it but is not money (hours to two
// decimals, a percentage) is told apart by the rules below; the few real exceptions are listed with their reason.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '../../..');
const MONEY_MODULE = 'core/engine/money.ts';

/** Words that name an amount of money in this code base's identifiers and columns. */
const MONEY = /pence|pounds|pay|charge|money|amount|price|cost|margin|floor|vat|wage|fee|gross|^net$|rate/i;
/** A name that counts something else though it mentions money: chargeHours, minimum_charge_hours, pay_percent. */
const OTHER_UNIT = /(hours|minutes|percent|ms)$/i;
/** Names of money in a piece of code: `rate.holiday_pay_percent * pay` names `pay` (and `rate`). */
const namesMoney = (code: string) =>
  (code.match(/[A-Za-z_$][\w$]*/g) ?? []).some((id) => MONEY.test(id) && !OTHER_UNIT.test(id));
/** Lines about what is not money though it is written with two decimals (hours, load averages, latencies). */
const NOT_MONEY = /hour|minute|percent|done|load|p50|p99/i;

interface Rule {
  name: string;
  test(line: string): boolean;
}

/** The text inside the parentheses that open at `open` (an index of '('), or the rest of the line. */
function argumentAt(line: string, open: number): string {
  let depth = 0;
  for (let i = open; i < line.length; i++) {
    if (line[i] === '(') depth++;
    else if (line[i] === ')' && --depth === 0) return line.slice(open + 1, i);
  }
  return line.slice(open + 1);
}

const RULES: Rule[] = [
  {
    // '£' joined to a number: `£${…}`, '£' + …, SQL's '£' || ….
    name: 'writes a pound sign before a computed amount (use formatPounds)',
    test: (l) => /£\s*\$\{|£['"`]\s*(\+|\|\|)/.test(l),
  },
  {
    name: 'formats a number with two decimals (use formatPounds or penceToPounds)',
    test: (l) => /\.toFixed\(\s*2\s*\)/.test(l) && !NOT_MONEY.test(l),
  },
  {
    name: 'formats currency with Intl (use formatPounds)',
    test: (l) => /FractionDigits|style:\s*['"]currency|currency:\s*['"]GBP/.test(l),
  },
  {
    name: 'divides an amount of money by 100 (use penceToPounds)',
    test: (l) => {
      for (const m of l.matchAll(/([\w.\]]+)\)?\s*\/\s*100(?:\.0+)?(?![\d.])/g))
        if (namesMoney(m[1].split('.').pop() ?? '')) return true;
      return false;
    },
  },
  {
    name: 'rounds an amount of money by hand (use roundPence, poundsToPence, percentOf or amountForMinutes)',
    test: (l) => {
      for (const m of l.matchAll(/\b(?:Math\.(?:round|floor|ceil|trunc)|round)\(/g)) {
        const arg = argumentAt(l, m.index + m[0].length - 1);
        // × 100 inside a rounding is pounds made into pence, whatever the variable is called.
        if (namesMoney(arg) || (/\*\s*100\b/.test(arg) && !NOT_MONEY.test(arg))) return true;
      }
      return false;
    },
  },
];

/** Lines that break a rule on purpose, each with why; an entry that no longer matches anything fails the test. */
const ALLOWED: { file: string; line: string; why: string }[] = [
  {
    file: 'server/behaviours/wageFlag.ts',
    line: "'Pay below the minimum wage of £' || to_char(f.floor / 100.0",
    why: 'a computed column: the database writes the warning for lists and sorting, where JavaScript cannot run',
  },
  {
    file: 'server/behaviours/rateCards.ts',
    line: 'round(${pay} * oc.holiday_pay_percent / 100)',
    why: 'the SQL twin of onCosts (percentOf) for the rate list’s computed margin, sorted by the database',
  },
  {
    file: 'server/behaviours/rateCards.ts',
    line: 'round((${pay} + ${holiday}) * oc.employer_ni_percent / 100)',
    why: 'the same, for employer NI',
  },
  {
    file: 'src/resources/rates/margin.ts',
    line: 'Math.round((margin / charge) * 1000) / 10',
    why: 'the margin as a percentage of the charge to one decimal: a ratio of two amounts, not an amount',
  },
  {
    file: 'src/resources/shifts/shared.tsx',
    line: 'String(Math.round(h * 100) / 100)',
    why: 'hours (h) to two decimals, not pence',
  },
  {
    file: 'server/seed/rates.ts',
    line: 'Math.round(',
    why: 'the demo makes up rates and rounds them to 5p to look real; nothing there is an amount anyone owes',
  },
];

/** A line of code as the rules read it: comments and JSDoc are not code. */
function code(line: string): string {
  const t = line.trim();
  if (t.startsWith('//') || t.startsWith('*') || t.startsWith('/*')) return '';
  return line.replace(/\s\/\/\s.*$/, '');
}

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mjs|js)$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .filter((f) => f !== MONEY_MODULE);
}

function violationsIn(file: string, text: string) {
  const out: { file: string; line: number; text: string; rule: string }[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = code(raw);
    for (const rule of RULES) if (rule.test(line)) out.push({ file, line: i + 1, text: raw.trim(), rule: rule.name });
  });
  return out;
}

describe('only the money module formats or rounds pence', () => {
  const files = ['core', 'server', 'src'].flatMap(sources);
  const found = files.flatMap((f) => violationsIn(f, readFileSync(join(ROOT, f), 'utf8')));
  const allowed = (v: (typeof found)[number]) => ALLOWED.some((a) => a.file === v.file && v.text.includes(a.line));

  it('reads the whole product', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files).toContain('server/documents/pdf/layout.ts');
    expect(files).not.toContain(MONEY_MODULE);
  });

  it('finds no file outside core/engine/money.ts that formats or rounds pence', () => {
    expect(found.filter((v) => !allowed(v)).map((v) => `${v.file}:${v.line} ${v.rule}: ${v.text}`)).toEqual([]);
  });

  it('lists no exception that is no longer needed', () => {
    expect(ALLOWED.filter((a) => !found.some((v) => v.file === a.file && v.text.includes(a.line)))).toEqual([]);
  });

  it.each([
    'const money = (pence: number) => `£${(pence / 100).toFixed(2)}`;',
    "const text = '£' + pounds;",
    'const s = (row.charge / 100).toFixed(2);',
    "new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }).format(x)",
    "value.toLocaleString('en-GB', { minimumFractionDigits: 2 })",
    'const pounds = r.pay_rate / 100;',
    'return Number.isFinite(n) ? Math.round(n * 100) : v;',
    'const holidayPay = Math.round((pay * rate.holiday_pay_percent) / 100);',
    'return Math.round((minutes * ratePerHour) / 60);',
    '`select round(charge * 0.2) from shifts`',
  ])('would catch %s', (line) => {
    expect(violationsIn('x.ts', line)).not.toEqual([]);
  });

  it.each([
    'const hoursText = (h: number) => String(Number(h.toFixed(2)));',
    'hours: Math.round(Number(r.hours) * 100) / 100,',
    'const percent = job.total ? Math.min(100, Math.round((job.done / job.total) * 100)) : 0;',
    '// pounds are (pence / 100).toFixed(2) — a comment, not code',
    'const x = formatPounds(row.charge);',
  ])('lets %s be', (line) => {
    expect(violationsIn('x.ts', line)).toEqual([]);
  });
});
