// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { lockedReason } from '../../../core/engine/lifecycle';
import { timesheets } from '../../../core/resources/timesheets/resource';
import type { ResourceDeclaration } from '../../../core/engine/types';

// Issue 29.21: why a locked record refuses a change, in one clear sentence.
describe('lockedReason', () => {
  it('a state named "locked" is said once, not "locked and locked"', () => {
    expect(lockedReason(timesheets, { status: 'locked' })).toBe(
      'This timesheet is locked: it can no longer be changed.',
    );
  });

  it('any other final state says it is locked too, with what may still run', () => {
    const voucher: ResourceDeclaration = {
      ...timesheets,
      name: 'vouchers',
      label: { one: 'Voucher', many: 'Vouchers' },
      lifecycle: {
        field: 'status',
        final: ['issued'],
        transitions: [{ action: 'credit', from: ['issued'], to: 'issued' }],
      },
      actions: [{ name: 'credit', label: 'Credit', roles: ['admin'], success: 'Credited' }],
      fields: [{ source: 'status', type: 'choice', label: 'Status', choices: [{ id: 'issued', name: 'Issued' }] }],
    };
    expect(lockedReason(voucher, { status: 'issued' })).toBe(
      'This voucher is issued and locked: it can no longer be changed. Only Credit can still be run.',
    );
    expect(lockedReason(voucher, { status: 'draft' })).toBeNull();
  });
});
