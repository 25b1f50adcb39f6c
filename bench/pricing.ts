import { holidaySet } from '../core/domain/pricing/holidays';
import { DEFAULT_RULES, price } from '../core/domain/pricing/price';
import type { PricingRules, RateCard, ShiftToPrice } from '../core/domain/pricing/types';
import { addDaysToDate, zonedDateTimeToInstant } from '../core/domain/time/agencyTime';
import { median, type Benchmark } from './lib';

/**
 * Prices 100,000 varied shifts with the pure `price` function (issue 8: ≤ 1 s on this machine): days over two
 * years (both clock changes and every bank holiday in them), early, late, long-day and night starts, 4 to 13 hours,
 * breaks by rule or given, one in twenty a sleep-in, three regions, split and start-time rules. The shifts are
 * built before the clock starts. The first pass is the one that counts (caches cold, code not yet optimised);
 * the median of the following passes shows the steady state.
 */
const SHIFTS = 100_000;
const PASSES = 5;
const GOAL_MS = 1000;
const TZ = 'Europe/London';

const CARD: RateCard = {
  pay: { weekday_day: 1300, weekday_night: 1400, saturday: 1500, sunday: 1600, bank_holiday: 2000 },
  charge: { weekday_day: 2000, weekday_night: 2200, saturday: 2400, sunday: 2600, bank_holiday: 3000 },
};

function workload() {
  // A fixed-seed generator, so every run prices the same shifts.
  let seed = 8;
  const next = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % n;
  };
  const rules: PricingRules[] = [
    { ...DEFAULT_RULES, timeZone: TZ },
    { ...DEFAULT_RULES, timeZone: TZ, splitAtBoundaries: false, minimumChargeHours: 4 },
    {
      ...DEFAULT_RULES,
      timeZone: TZ,
      nightStart: '22:00',
      nightEnd: '07:00',
      weekendStart: { weekday: 5, time: '18:00' },
      weekendEnd: { weekday: 1, time: '06:00' },
    },
  ];
  const holidays = (['england_wales', 'scotland', 'northern_ireland'] as const).map((r) =>
    holidaySet(r, '2026-01-01', '2027-12-31', []),
  );
  const starts = ['07:00', '08:00', '09:30', '14:00', '19:45', '20:00', '22:00'];
  const jobs: { shift: ShiftToPrice; rules: PricingRules; holidays: ReadonlySet<string> }[] = [];
  for (let i = 0; i < SHIFTS; i++) {
    const start = zonedDateTimeToInstant(addDaysToDate('2026-01-01', next(730)), starts[next(starts.length)], TZ);
    const minutes = 240 + 15 * next(37);
    const shift: ShiftToPrice = {
      start: start.toISOString(),
      end: new Date(start.getTime() + minutes * 60_000).toISOString(),
      breakMinutes: next(4) === 0 ? 15 * next(5) : undefined,
      flat: next(20) === 0 ? { pay: 6000, charge: 9000 } : undefined,
    };
    jobs.push({ shift, rules: rules[next(rules.length)], holidays: holidays[next(holidays.length)] });
  }
  return jobs;
}

export const pricing: Benchmark = {
  name: 'pricing',
  description: `price ${SHIFTS.toLocaleString('en-GB')} varied shifts with the pure function`,
  async run() {
    const jobs = workload();
    const passes: number[] = [];
    let checksum = 0;
    for (let pass = 0; pass < PASSES; pass++) {
      const t = performance.now();
      for (const job of jobs) checksum += price(job.shift, job.rules, CARD, job.holidays).totals.charge;
      passes.push(performance.now() - t);
    }
    const [first, ...rest] = passes;
    console.log(
      `\n  pricing: ${SHIFTS} shifts in ${first.toFixed(0)} ms (first pass); ${median(rest).toFixed(0)} ms (median of the next ${rest.length})`,
    );
    return {
      metrics: [
        { name: `${SHIFTS} shifts, first pass`, value: first, unit: 'ms', target: GOAL_MS },
        {
          name: `${SHIFTS} shifts, steady (median of ${rest.length})`,
          value: median(rest),
          unit: 'ms',
          target: GOAL_MS,
        },
      ],
      details: { passes_ms: passes.map((p) => Math.round(p)), checksum },
    };
  },
};
