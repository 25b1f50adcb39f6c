import type { Queryable } from '../server/db';
import { median, type Metric } from './lib';

/**
 * A path of the product timed beside the bare SQL that does the same work (setBased, createMany, invoices): the two
 * alternate, so each ratio compares runs made on the same load of a shared machine, and the median ratio is reported
 * with where the product's last run spent its time.
 */

export interface Statement {
  sql: string;
  ms: number;
}

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

/** Wraps a transaction so each statement's time is kept (its first words name it). */
export function timed(tx: Queryable, log: Statement[]): Queryable {
  return {
    // As the product's transaction answers many rows (PGlite: as one JSON text).
    manyRowsAsJson: tx.manyRowsAsJson,
    async query(sql, params) {
      const t = performance.now();
      try {
        return await tx.query(sql, params);
      } finally {
        log.push({ sql: sql.trim().replace(/\s+/g, ' ').slice(0, 70), ms: performance.now() - t });
      }
    },
  };
}

export interface SideBySide {
  /** The product's path: answers its ms; its statements go through `capture` (a transaction wrapped by `timed`). */
  subject(capture: (tx: Queryable) => Queryable): Promise<number>;
  /** The bare SQL doing the same: answers its ms. */
  bare(): Promise<number>;
  /** Other anchors, run after the bare one in each round (their times are answered, no ratio reported). */
  others?: Record<string, () => Promise<number>>;
  /** Runs of each after the warm-ups. */
  rounds: number;
  /**
   * Whether to warm up first, or how many times (a run too long to repeat is measured cold, as it is met; a short one
   * runs as a server that has already served it: JavaScript's compiler optimises a path after a few runs of it).
   */
  warmUp?: boolean | number;
}

/** Alternates the two; answers every time, the ratios and the statements of the subject's last run. */
export async function sideBySide({ subject, bare, others = {}, rounds, warmUp = true }: SideBySide) {
  let statements: Statement[] = [];
  // This process's CPU time of each run beside its wall time: on a shared machine the wall time grows with the load,
  // the CPU a run needs does not (PGlite's database runs in this process, so there it is the database's too).
  const cpu = { subject: [] as number[], bare: [] as number[] };
  const cpuOf = async (run: () => Promise<number>, into: number[]) => {
    const before = process.cpuUsage();
    const ms = await run();
    const used = process.cpuUsage(before);
    into.push((used.user + used.system) / 1000);
    return ms;
  };
  const once = async () => {
    const captured: Statement[] = [];
    const ms = await subject((tx) => timed(tx, captured));
    statements = captured;
    return ms;
  };
  for (let i = 0; i < Number(warmUp); i++) {
    await once();
    await bare();
  }
  const times = { subject: [] as number[], bare: [] as number[] };
  const other: Record<string, number[]> = Object.fromEntries(Object.keys(others).map((k) => [k, []]));
  for (let i = 0; i < rounds; i++) {
    times.subject.push(await cpuOf(once, cpu.subject));
    times.bare.push(await cpuOf(bare, cpu.bare));
    for (const [k, run] of Object.entries(others)) other[k].push(await run());
  }
  const ratios = times.subject.map((x, i) => x / times.bare[i]);
  return { times, other, ratios, ratio: median(ratios), statements, cpu };
}

/**
 * The two metrics (the product's median against the bare median with its goal, and the median ratio), the log lines
 * and the details of a side-by-side run.
 */
export function sideBySideReport(
  r: Awaited<ReturnType<typeof sideBySide>>,
  o: {
    label: string;
    /** What the product did, e.g. "createMany of 10000 shifts (validation, pricing, audit)". */
    subject: string;
    /** What the bare SQL did, e.g. "a bare INSERT … unnest of the same rows". */
    bare: string;
    /** Short names for the ratio's metric, e.g. "createMany ÷ bare INSERT … unnest". */
    ratioName: string;
    goal: number;
    /** What the time outside the statements is, e.g. "JavaScript (validation, pricing), begin and commit". */
    rest: string;
    log: (s: string) => void;
  },
) {
  const s = median(r.times.subject);
  const b = median(r.times.bare);
  const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
  o.log(`${o.subject}: median ${s.toFixed(0)} ms (${list(r.times.subject)})`);
  o.log(`${o.bare}: median ${b.toFixed(0)} ms (${list(r.times.bare)})`);
  const [sc, bc] = [median(r.cpu.subject), median(r.cpu.bare)];
  o.log(`this process's CPU (medians): ${sc.toFixed(0)} ms beside ${bc.toFixed(0)} ms (${(sc / bc).toFixed(2)}×)`);
  const inSql = r.statements.reduce((sum, x) => sum + x.ms, 0);
  // A statement run many times (a job's steps) is one row: its total and how many times it ran.
  const byStatement = new Map<string, { ms: number; times: number }>();
  for (const x of r.statements) {
    const seen = byStatement.get(x.sql) ?? { ms: 0, times: 0 };
    byStatement.set(x.sql, { ms: seen.ms + x.ms, times: seen.times + 1 });
  }
  const breakdown = [
    ...[...byStatement].map(([sql, x]) => ({ statement: x.times > 1 ? `${x.times}× ${sql}` : sql, ms: round(x.ms) })),
    { statement: `(the rest: ${o.rest})`, ms: round(r.times.subject.at(-1)! - inSql) },
  ];
  o.log(
    `ratio ${r.ratio.toFixed(2)}× (median of the rounds' ratios; goal ≤ ${o.goal}×); where the last run's time went:`,
  );
  // The slowest statements and the rest: a run of many statements lists only those that matter.
  const shown = breakdown.length > 25 ? [...breakdown].sort((x, y) => y.ms - x.ms).slice(0, 25) : breakdown;
  for (const x of shown) o.log(`    ${String(x.ms).padStart(8)} ms  ${x.statement}`);
  const metrics: Metric[] = [
    {
      name: `${o.label}: ${o.subject}`,
      value: round(s),
      unit: 'ms',
      anchor: round(b),
      anchorNote: o.bare,
      target: round(o.goal * b),
    },
    {
      name: `${o.label}: ${o.ratioName} (median of the rounds)`,
      value: round(r.ratio, 2),
      unit: '×',
      target: o.goal,
      note: r.ratio <= o.goal ? 'met' : 'NOT met',
    },
  ];
  return {
    metrics,
    details: {
      rounds: r.times.subject.length,
      ms: { subject: r.times.subject.map((x) => round(x)), bare: r.times.bare.map((x) => round(x)) },
      process_cpu_ms: { subject: r.cpu.subject.map((x) => round(x)), bare: r.cpu.bare.map((x) => round(x)) },
      ratios: r.ratios.map((x) => round(x, 2)),
      breakdown,
    },
  };
}
