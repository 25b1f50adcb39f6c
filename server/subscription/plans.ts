// Issue 35, subscription: the plans an installation offers, defined by its operator in configuration (PLANS, a JSON
// text, or PLANS_FILE, a JSON file's path), checked when the server starts so a mistake stops it with a clear message
// rather than refusing an agency's activation later. See docs/decisions.md, "Issue 35 — subscription and plan limits".
import { readFileSync } from 'node:fs';

/** What a plan counts: each limit a whole number, or null for no limit. */
export interface PlanLimits {
  active_staff: number | null;
  users: number | null;
  clients: number | null;
  storage_mb: number | null;
}

export interface Plan {
  /** Kept on the agency's settings row: lower-case letters, digits and hyphens. */
  id: string;
  name: string;
  /** The price per month in pence (money is integer pence), shown on the page; the bundled driver charges nothing. */
  price_pence: number;
  limits: PlanLimits;
}

export interface PlanSet {
  plans: Plan[];
  /** The plan of an agency that never chose one (every agency made before the plans, and every new one). */
  default: string;
}

export const LIMITS: (keyof PlanLimits)[] = ['active_staff', 'users', 'clients', 'storage_mb'];

/**
 * The installation's plans when the operator defines none. The default is Unlimited, so that an installation that
 * never set up plans (every one before this issue) refuses no agency anything.
 */
export const DEFAULT_PLANS: PlanSet = {
  default: 'unlimited',
  plans: [
    {
      id: 'starter',
      name: 'Starter',
      price_pence: 4900,
      limits: { active_staff: 50, users: 3, clients: 10, storage_mb: 1024 },
    },
    {
      id: 'growth',
      name: 'Growth',
      price_pence: 14900,
      limits: { active_staff: 250, users: 15, clients: 50, storage_mb: 10240 },
    },
    {
      id: 'unlimited',
      name: 'Unlimited',
      price_pence: 39900,
      limits: { active_staff: null, users: null, clients: null, storage_mb: null },
    },
  ],
};

/**
 * The operator's plans from their JSON text (`source` names where it came from in the message), or a thrown Error
 * saying what is wrong in words: { "default": "starter", "plans": [{ "id", "name", "price_pence", "limits": {
 * "active_staff", "users", "clients", "storage_mb" } }] }, each limit a whole number from 0 or null for none.
 */
export function parsePlans(text: string, source = 'PLANS'): PlanSet {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`${source}: not JSON (${(e as Error).message}).`);
  }
  const fail = (what: string): never => {
    throw new Error(`${source}: ${what}`);
  };
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) fail('give an object with "plans" and "default".');
  const { plans, default: fallback } = raw as { plans?: unknown; default?: unknown };
  if (!Array.isArray(plans) || plans.length === 0) fail('"plans" must be a list of at least one plan.');
  const seen = new Set<string>();
  const parsed = (plans as unknown[]).map((p, i): Plan => {
    const at = `plan ${i + 1}`;
    if (!p || typeof p !== 'object') fail(`${at} is not an object.`);
    const { id, name, price_pence, limits } = p as Record<string, unknown>;
    if (typeof id !== 'string' || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id) || id.length > 40)
      fail(`${at}: "id" must be lower-case letters, digits and single hyphens, up to 40 characters.`);
    const idText = id as string;
    if (seen.has(idText)) fail(`${at}: the id "${idText}" is given twice.`);
    seen.add(idText);
    if (typeof name !== 'string' || !name.trim() || name.length > 60)
      fail(`plan "${idText}": "name" must be a text of 1 to 60 characters.`);
    const price = price_pence ?? 0;
    if (!Number.isSafeInteger(price) || (price as number) < 0)
      fail(`plan "${idText}": "price_pence" must be a whole number of pence from 0.`);
    if (!limits || typeof limits !== 'object' || Array.isArray(limits))
      fail(`plan "${idText}": "limits" must be an object (${LIMITS.join(', ')}).`);
    const given = limits as Record<string, unknown>;
    const unknownKey = Object.keys(given).find((k) => !(LIMITS as string[]).includes(k));
    if (unknownKey) fail(`plan "${idText}": "${unknownKey}" is no limit (${LIMITS.join(', ')}).`);
    const out = {} as PlanLimits;
    for (const k of LIMITS) {
      const v = given[k] ?? null;
      if (v !== null && (!Number.isSafeInteger(v) || (v as number) < 0))
        fail(`plan "${idText}": "${k}" must be a whole number from 0, or null for no limit.`);
      out[k] = v as number | null;
    }
    return { id: idText, name: (name as string).trim(), price_pence: price as number, limits: out };
  });
  if (typeof fallback !== 'string' || !seen.has(fallback))
    fail(`"default" must be the id of one of the plans (${[...seen].join(', ')}).`);
  return { plans: parsed, default: fallback as string };
}

/** The plans of the configuration: PLANS (JSON text) or PLANS_FILE (a JSON file); neither, the bundled set. */
export function loadPlans(env: NodeJS.ProcessEnv): PlanSet {
  if (env.PLANS && env.PLANS_FILE) throw new Error('PLANS and PLANS_FILE: give one of them, not both.');
  if (env.PLANS) return parsePlans(env.PLANS, 'PLANS');
  if (env.PLANS_FILE) {
    let text: string;
    try {
      text = readFileSync(env.PLANS_FILE, 'utf8');
    } catch (e) {
      throw new Error(`PLANS_FILE: cannot read ${env.PLANS_FILE} (${(e as Error).message}).`);
    }
    return parsePlans(text, `PLANS_FILE ${env.PLANS_FILE}`);
  }
  return DEFAULT_PLANS;
}

// The installation's plans, set once as the app is built (buildApp, from its configuration): the engine's hooks read
// them wherever a write runs (a request, a job), as they read no configuration otherwise.
let installed: PlanSet = DEFAULT_PLANS;

export function installPlans(set: PlanSet) {
  installed = set;
}

export const installedPlans = (): PlanSet => installed;

/**
 * The agency's plan from the id on its settings row: none (never chosen) is the default plan; an id the operator
 * has since removed from the configuration is the default plan too, rather than a refusal of everything.
 */
export function planOf(id: string | null | undefined): Plan {
  return installed.plans.find((p) => p.id === id) ?? installed.plans.find((p) => p.id === installed.default)!;
}
