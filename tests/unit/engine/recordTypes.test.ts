// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { recordTypesSource } from '../../../core/engine/recordTypes';
import { declarations } from '../../../core/resources/declarations';
import type { ResourceDeclaration } from '../../../core/engine/types';
import type { Records, ShiftRecord, TimesheetLineRecord } from '../../../core/resources/records';

// Issue 31.7: the record types are the declarations' (core/resources/records.ts, written by npm run engine:records).
describe('record types', () => {
  it('core/resources/records.ts is what the declarations give: a field added, removed or retyped fails here', () => {
    const file = readFileSync(new URL('../../../core/resources/records.ts', import.meta.url), 'utf8');
    expect(file, 'run `npm run engine:records`').toBe(recordTypesSource(declarations));
  });

  it('types each field as the database holds it: pence, ids, dates as text, a choice as its ids', () => {
    const vehicles: ResourceDeclaration = {
      name: 'vehicles',
      table: 'vehicles',
      label: { one: 'Vehicle', many: 'Vehicles' },
      recordRepresentation: '%{registration}',
      defaultSort: { field: 'registration', order: 'ASC' },
      delete: 'soft',
      access: {},
      fields: [
        { source: 'registration', type: 'text', label: 'Registration', required: true },
        { source: 'kind', type: 'choice', label: 'Kind', choices: [{ id: 'van', name: 'Van' }] },
        { source: 'seats', type: 'number', label: 'Seats', integer: true },
        { source: 'litres', type: 'number', label: 'Litres' },
        { source: 'hire_rate', type: 'money', label: 'Hire rate', required: true },
        { source: 'mot_due', type: 'date', label: 'MOT due' },
        { source: 'site_id', type: 'reference', reference: 'sites', label: 'Site' },
        { source: 'hired', type: 'boolean', label: 'Hired' },
        { source: 'site_name', type: 'text', label: 'Site', computed: true, readOnly: true },
      ],
    };
    const source = recordTypesSource([vehicles]);
    for (const member of [
      'export type VehicleRecord = {',
      '  deleted_at: string | null;',
      '  registration: string;',
      "  kind: 'van' | null;",
      '  seats: number | null;',
      '  litres: number | string | null;',
      '  hire_rate: number;',
      '  mot_due: string | null;',
      '  site_id: number | null;',
      '  hired: boolean;',
      '  site_name?: string | null;',
      '  vehicles: VehicleRecord;',
    ])
      expect(source).toContain(member);
  });

  it('the generated types are the ones the code reads (checked by the typecheck)', () => {
    expectTypeOf<ShiftRecord['charge']>().toEqualTypeOf<number | null>();
    expectTypeOf<ShiftRecord['status']>().toEqualTypeOf<'open' | 'assigned' | 'closed' | 'cancelled'>();
    expectTypeOf<TimesheetLineRecord['timesheet_id']>().toEqualTypeOf<number>();
    expectTypeOf<Records['timesheet_lines']>().toEqualTypeOf<TimesheetLineRecord>();
  });
});
