// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { answer, assertNoDrift, contractErrors, drifts } from './contract';
import { Checks } from '../../../core/contracts/shifts';
import { Quote } from '../../../core/contracts/rates';
import { EngineList, listParams } from '../../../core/contracts/records';
import { declarations } from '../../../core/resources/declarations';

const awr = { weeks: 2, qualified: false, paused: false, resetOn: null };

describe("the fakes' contract check (issue 15)", () => {
  it('finds a fixture missing what the server always sends (the partial /check answer the assign dialog was tested with)', () => {
    const partial = { data: { hard: [], soft: [], info: [] } };
    expect(contractErrors(Checks, partial)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\/data must have required properties? .*passes/)]),
    );
    const whole = { data: { candidate_id: 7, name: 'Rae Newman', passes: true, hard: [], soft: [], info: [], awr } };
    expect(contractErrors(Checks, whole)).toEqual([]);
  });

  it("finds a property the server's schema would drop: a client's quote with pay in it", () => {
    const leaky = { lines: [], totals: { hours: 7.5, charge: 15000, pay: 9750 }, warnings: [] };
    expect(contractErrors(Quote, leaky).join('\n')).toMatch(/pay/);
    expect(contractErrors(Quote, { lines: [], totals: { hours: 7.5, charge: 15000 }, warnings: [] })).toEqual([]);
  });

  it('finds the old list envelope (no per_page, no references)', () => {
    expect(
      contractErrors(EngineList, { data: [{ id: 1 }], total_count: 1, total_pages: 1, current_page: 1 }).join('\n'),
    ).toMatch(/per_page|references/);
  });

  it("a fake's drifting answer fails the test it served, and only that one", () => {
    answer('GET /api/shifts/:id/check', Checks, { data: { hard: [], soft: [], info: [] } });
    expect(drifts).toHaveLength(1);
    expect(() => assertNoDrift()).toThrow(/GET \/api\/shifts\/:id\/check drifts from the API's contract/);
    expect(drifts).toHaveLength(0);
    expect(() => assertNoDrift()).not.toThrow();
  });

  it("knows a list's filters from its declaration, as the server refuses the rest with 400", () => {
    const candidates = listParams(declarations.find((d) => d.name === 'candidates')!);
    for (const accepted of ['page', 'per_page', 'q', 'status', 'status_value', 'activated_value'])
      expect(candidates.has(accepted), accepted).toBe(true);
    expect(candidates.has('password_hash')).toBe(false);
  });
});
