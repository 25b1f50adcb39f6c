import { describe, expect, it } from 'vitest';
import { declarationByName, declarations } from '../../../core/resources/declarations';
import { unitPathOf, unitScopeGaps } from '../../../core/engine/unitScope';
import type { ResourceDeclaration } from '../../../core/engine/types';

// Issue 35, roles limited to business units: every resource that refers to clients, or to rows limited by unit, says
// how a unit limits it (a path to its client, or none with the reason), so a new resource cannot forget.
const decl = (name: string, extra: Partial<ResourceDeclaration>): ResourceDeclaration =>
  ({
    name,
    table: name,
    label: { one: name, many: name },
    recordRepresentation: 'id',
    fields: [],
    ...extra,
  }) as ResourceDeclaration;
const refersTo = (reference: string) => ({
  fields: [{ source: 'ref_id', type: 'reference' as const, label: 'Ref', reference }],
});

describe('unit scope of the declarations', () => {
  it('leaves no resource that refers to clients, or to rows limited by unit, without a unit path or none', () => {
    expect(unitScopeGaps(declarations)).toEqual([]);
  });

  it.each([
    // [resource, the path a unit-limited role follows to the client, or null: not limited]
    ['clients', 'id'],
    ['shifts', 'client_id'],
    ['timesheets', 'client_id'],
    ['invoices', 'client_id'],
    ['invoice_lines', 'invoice_id.client_id'],
    ['rate_cards', 'client_id'],
    ['client_rules', 'client_id'],
    ['shift_requests', 'shift_id.client_id'],
    ['diary_notes', 'client_id'],
    ['payments', 'client_id'],
    ['invoice_export_batches', 'client_id'],
    ['invoice_reminders', 'invoice_id.client_id'],
    ['users', 'client_id'],
    // Staff members work across units; the agency's vocabulary is every unit's; a payslip spans clients.
    ['candidates', null],
    ['candidate_restrictions', null],
    ['job_roles', null],
    ['payslips', null],
    ['invoice_runs', null],
  ])('%s: %s', (name, path) => {
    expect(unitPathOf(declarationByName.get(name)!)).toBe(path);
  });

  it('a new resource referring to a client, or to a shift, is caught until it declares a path or none', () => {
    const shifts = declarationByName.get('shifts')!;
    const clients = declarationByName.get('clients')!;
    expect(unitScopeGaps([clients, shifts, decl('notes_a', refersTo('clients'))])).toEqual([
      'notes_a.ref_id refers to clients: declare its unitScope (a path or { none })',
    ]);
    expect(unitScopeGaps([clients, shifts, decl('notes_b', refersTo('shifts'))])).toHaveLength(1);
    // Through a resource whose own path is declared (rather than its clientScope): caught too.
    const limited = decl('limited', { ...refersTo('clients'), unitScope: 'ref_id' });
    expect(unitScopeGaps([clients, limited, decl('notes_c', refersTo('limited'))])).toHaveLength(1);
    expect(unitScopeGaps([clients, decl('notes_d', { ...refersTo('clients'), unitScope: 'ref_id' })])).toEqual([]);
    expect(unitScopeGaps([clients, decl('notes_e', { ...refersTo('clients'), unitScope: { none: 'why' } })])).toEqual(
      [],
    );
    // A set of declarations without clients (an engine test's) has no units to limit by.
    expect(unitScopeGaps([shifts, decl('notes_g', refersTo('shifts'))])).toEqual([]);
    // What refers to a resource not limited by unit (a staff member) needs nothing.
    expect(unitScopeGaps([clients, decl('notes_f', refersTo('candidates'))])).toEqual([]);
  });
});
