// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { compile } from '../../../server/engine/compile';
import { TotalCache } from '../../../server/engine/totals';
import { RowsRefused } from '../../../server/engine/createMany';
import type { ResourceDeclaration } from '../../../core/engine/types';

const vans: ResourceDeclaration = {
  name: 'vans',
  table: 'vans',
  label: { one: 'Van', many: 'Vans' },
  recordRepresentation: '%{registration}',
  defaultSort: { field: 'registration', order: 'ASC' },
  delete: 'hard',
  access: {},
  fields: [
    { source: 'registration', type: 'text', label: 'Registration', required: true },
    { source: 'seats', type: 'number', label: 'Seats', integer: true },
  ],
};
const c = compile(
  vans,
  () => {
    throw new Error('no references');
  },
  new TotalCache(),
);

describe('RowsRefused: a createMany refused, naming its records', () => {
  it('keys each problem as rows[i].field, and says the first records in words (row numbers from 1)', () => {
    const e = new RowsRefused(c, 5000, [
      { row: 3217, errors: { registration: 'Required' } },
      { row: 4000, errors: { seats: 'Must be a number', '': 'This van is a duplicate' } },
    ]);
    expect(e.status).toBe(422);
    expect(e.errors).toEqual({
      'rows[3217].registration': 'Required',
      'rows[4000].seats': 'Must be a number',
      'rows[4000]': 'This van is a duplicate',
    });
    expect(e.message).toBe(
      'Nothing was created: 2 of the 5000 vans have problems. Row 3218 (rows[3217]), Registration: Required; Row 4001 (rows[4000]), Seats: Must be a number; Row 4001 (rows[4000]): This van is a duplicate',
    );
    expect(e.rows).toHaveLength(2);
  });

  it('names three records and says there are more; keeps the status a single create would answer', () => {
    const e = new RowsRefused(
      c,
      10,
      [1, 2, 3, 4].map((row) => ({ row, errors: { seats: 'Must be a number' } })),
      409,
    );
    expect(e.status).toBe(409);
    expect(e.message).toMatch(
      /^Nothing was created: 4 of the 10 vans have problems\. Row 2 .*Row 4 \(rows\[3\]\), Seats: Must be a number; …$/,
    );
    expect(Object.keys(e.errors!)).toHaveLength(4);
  });
});
