import { describe, expect, it } from 'vitest';
import {
  BUILT_IN_STAGES,
  CUSTOM_STAGE_IDS,
  CUSTOM_STAGE_LIMIT,
  nextCustomStageId,
  removedStages,
  stageLabel,
  stagesOf,
  stagesProblem,
  type Stage,
} from '../../../core/domain/recruitment/stages';
import { jobApplications } from '../../../core/resources/recruitment/resource';
import { recruitmentSettings } from '../../../core/resources/recruitment/settings';
import { stagedDecl } from '../../../src/resources/recruitment/stages';

// The agency's pipeline stages (issue 35): what a list it saves must hold, the slots its own stages take, and how the
// screens name the declaration's states by it.
const base = (): Stage[] => BUILT_IN_STAGES.map((s) => ({ ...s }));
const own = (id: string, label: string) => ({ id, label });

describe('stagesProblem', () => {
  const cases: [string, unknown, RegExp | null][] = [
    ['the product’s list', base(), null],
    [
      'renamed and one of its own before hired',
      [...base().slice(0, 4), own('custom_1', 'Trial shift'), ...base().slice(4)],
      null,
    ],
    ['its own first among the open stages', [base()[0], own('custom_2', 'Call'), ...base().slice(1)], null],
    ['nothing', [], /List the stages/],
    ['not a list', { applied: 'Applied' }, /List the stages/],
    ['a product stage missing', base().filter((s) => s.id !== 'interview'), /Interview stage cannot be removed/],
    ['applied not first', [base()[1], base()[0], ...base().slice(2)], /Applied comes first/],
    ['rejected before hired', [...base().slice(0, 4), base()[5], base()[4]], /come last/],
    ['its own after hired', [...base().slice(0, 5), own('custom_1', 'After'), base()[5]], /come last/],
    [
      'a name twice, whatever the case',
      [base()[0], own('custom_1', ' SCREENING '), ...base().slice(1)],
      /Two stages are called “Screening”/,
    ],
    ['a slot twice', [base()[0], own('custom_1', 'A'), own('custom_1', 'B'), ...base().slice(1)], /listed twice/],
    ['an unknown slot', [base()[0], own('custom_99', 'A'), ...base().slice(1)], /not a stage this product knows/],
    ['an empty name', [base()[0], own('custom_1', '  '), ...base().slice(1)], /needs a name/],
    ['a name too long', [base()[0], own('custom_1', 'x'.repeat(41)), ...base().slice(1)], /at most 40 characters/],
  ];
  it.each(cases)('%s', (_, list, problem) => {
    const said = stagesProblem(list);
    if (problem) expect(said).toMatch(problem);
    else expect(said).toBeNull();
  });
});

describe('the stage list', () => {
  it('is the product’s until the agency saves one; a label is its own, else the product’s', () => {
    expect(stagesOf(null)).toEqual(base());
    expect(stagesOf([])).toEqual(base());
    const mine = [base()[0], own('custom_1', 'Trial shift'), ...base().slice(1)];
    expect(stagesOf(mine)).toBe(mine);
    expect(stageLabel(mine, 'custom_1')).toBe('Trial shift');
    expect(stageLabel(mine, 'offer')).toBe('Offer');
    expect(stageLabel([], 'hired')).toBe('Hired');
  });

  it('gives a new stage the first free slot, none past the limit; names the stages a save removes', () => {
    expect(nextCustomStageId(base())).toBe('custom_1');
    expect(nextCustomStageId([...base(), own('custom_1', 'A'), own('custom_3', 'C')])).toBe('custom_2');
    const full = [...base(), ...CUSTOM_STAGE_IDS.map((id) => own(id, id))];
    expect(CUSTOM_STAGE_IDS).toHaveLength(CUSTOM_STAGE_LIMIT);
    expect(nextCustomStageId(full)).toBeUndefined();
    expect(removedStages([...base(), own('custom_2', 'B')], base())).toEqual([own('custom_2', 'B')]);
    expect(removedStages(base(), base())).toEqual([]);
  });

  it('is checked by the settings’ declaration, and the lifecycle holds every slot', () => {
    expect(recruitmentSettings.rules!({ stages: base() })).toEqual({});
    expect(recruitmentSettings.rules!({ stages: null })).toEqual({});
    expect(recruitmentSettings.rules!({ stages: base().slice(1) })).toHaveProperty('stages');
    const states = jobApplications.fields.find((f) => f.source === 'stage')!.choices!.map((c) => c.id);
    for (const id of CUSTOM_STAGE_IDS) expect(states).toContain(id);
    const move = jobApplications.lifecycle!.transitions.find((t) => t.action === 'move')!;
    expect(move.to).toEqual(CUSTOM_STAGE_IDS);
    expect(move.from).not.toContain('hired');
    expect(move.from).not.toContain('rejected');
  });
});

describe('stagedDecl', () => {
  it('names the states, orders the tabs and offers the move to the agency’s own stages', () => {
    const mine = [base()[0], own('custom_2', 'Trial shift'), ...base().slice(1, 5), own('custom_1', 'Refs'), base()[5]];
    // Refs after hired is no list an agency can save, but the screen follows whatever order it is given.
    const decl = stagedDecl(jobApplications, mine);
    expect(decl.fields.find((f) => f.source === 'stage')!.choices).toEqual(
      mine.map((s) => ({ id: s.id, name: s.label })),
    );
    expect(decl.tabs!.map((t) => t.label)).toEqual(['All', ...mine.map((s) => s.label)]);
    // Each stage's tab keeps its own columns: no stage column, and the interview's date on the interview tab.
    expect(decl.tabs!.find((t) => t.id === 'interview')!.columns!.shown).toEqual(['interview_at']);
    expect(decl.tabs!.find((t) => t.id === 'custom_2')!.columns!.hidden).toEqual(['stage']);
    const input = decl.actions!.find((a) => a.name === 'move')!.input!.find((f) => f.source === 'to_stage')!;
    expect(input.choices).toEqual([
      { id: 'custom_2', name: 'Trial shift' },
      { id: 'custom_1', name: 'Refs' },
    ]);
    // The declaration itself is untouched: the server's lifecycle is the same for every agency.
    expect(jobApplications.tabs!.map((t) => t.id)).toContain('custom_6');
  });
});
