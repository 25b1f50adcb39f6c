// @vitest-environment node
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS, loadPlans, parsePlans, type PlanSet } from '../../../server/subscription/plans';
import { loadConfig } from '../../../server/config';

// Issue 35, subscription: the operator's plans are checked when the server starts, each mistake said in words.
const valid: PlanSet = {
  default: 'basic',
  plans: [
    {
      id: 'basic',
      name: 'Basic',
      price_pence: 2500,
      limits: { active_staff: 10, users: 2, clients: 5, storage_mb: 100 },
    },
    {
      id: 'open',
      name: 'Open',
      price_pence: 0,
      limits: { active_staff: null, users: null, clients: null, storage_mb: null },
    },
  ],
};
const refusal = (value: unknown) => {
  try {
    parsePlans(typeof value === 'string' ? value : JSON.stringify(value));
  } catch (e) {
    return (e as Error).message;
  }
  return 'accepted';
};

describe('the plans of the configuration', () => {
  it('are the bundled set when the operator gives none, its default Unlimited', () => {
    expect(loadPlans({})).toBe(DEFAULT_PLANS);
    expect(loadConfig({}).plans.default).toBe('unlimited');
    expect(DEFAULT_PLANS.plans.map((p) => p.name)).toEqual(['Starter', 'Growth', 'Unlimited']);
    // The bundled set passes its own check.
    expect(parsePlans(JSON.stringify(DEFAULT_PLANS))).toEqual(DEFAULT_PLANS);
  });

  it('are read from PLANS or from the file PLANS_FILE names, not both', () => {
    expect(loadConfig({ PLANS: JSON.stringify(valid) }).plans).toEqual(valid);
    const file = join(mkdtempSync(join(tmpdir(), 'plans-')), 'plans.json');
    writeFileSync(file, JSON.stringify(valid));
    expect(loadPlans({ PLANS_FILE: file })).toEqual(valid);
    expect(() => loadPlans({ PLANS: '{}', PLANS_FILE: file })).toThrow(
      'PLANS and PLANS_FILE: give one of them, not both.',
    );
    expect(() => loadPlans({ PLANS_FILE: join(file, '..', 'missing.json') })).toThrow(/^PLANS_FILE: cannot read/);
    writeFileSync(file, '{ "plans": [');
    expect(() => loadConfig({ PLANS_FILE: file })).toThrow(/^PLANS_FILE .*plans\.json: not JSON/);
  });

  it('stop the start with a message in words for each mistake', () => {
    const plan = valid.plans[0];
    expect(refusal('not json')).toMatch(/^PLANS: not JSON/);
    expect(refusal([plan])).toBe('PLANS: give an object with "plans" and "default".');
    expect(refusal({ default: 'basic', plans: [] })).toBe('PLANS: "plans" must be a list of at least one plan.');
    expect(refusal({ default: 'basic', plans: [{ ...plan, id: 'Basic Plan' }] })).toBe(
      'PLANS: plan 1: "id" must be lower-case letters, digits and single hyphens, up to 40 characters.',
    );
    expect(refusal({ default: 'basic', plans: [plan, plan] })).toBe('PLANS: plan 2: the id "basic" is given twice.');
    expect(refusal({ default: 'basic', plans: [{ ...plan, name: ' ' }] })).toBe(
      'PLANS: plan "basic": "name" must be a text of 1 to 60 characters.',
    );
    expect(refusal({ default: 'basic', plans: [{ ...plan, price_pence: 24.99 }] })).toBe(
      'PLANS: plan "basic": "price_pence" must be a whole number of pence from 0.',
    );
    expect(refusal({ default: 'basic', plans: [{ ...plan, limits: { ...plan.limits, users: -1 } }] })).toBe(
      'PLANS: plan "basic": "users" must be a whole number from 0, or null for no limit.',
    );
    expect(refusal({ default: 'basic', plans: [{ ...plan, limits: { ...plan.limits, staff: 3 } }] })).toBe(
      'PLANS: plan "basic": "staff" is no limit (active_staff, users, clients, storage_mb).',
    );
    expect(refusal({ default: 'gold', plans: [plan] })).toBe(
      'PLANS: "default" must be the id of one of the plans (basic).',
    );
    // A limit left out is no limit; a price left out is free.
    expect(
      parsePlans(JSON.stringify({ default: 'x', plans: [{ id: 'x', name: 'X', limits: { users: 1 } }] })).plans[0],
    ).toEqual({
      id: 'x',
      name: 'X',
      price_pence: 0,
      limits: { active_staff: null, users: 1, clients: null, storage_mb: null },
    });
  });
});
