// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { deleteRefusal, lockedReason } from '../../../core/engine/lifecycle';
import { jobApplications } from '../../../core/resources/recruitment/resource';
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

// Issue 35: the retention job erases rejected applications, which their final state locks against a user's delete.
describe('deleteRefusal past the lock', () => {
  it('a final record refuses a delete unless the server goes past its lock; a deleted one refuses both', () => {
    expect(deleteRefusal(jobApplications, { stage: 'rejected' })).toMatch(/rejected and locked/);
    expect(deleteRefusal(jobApplications, { stage: 'rejected' }, { pastLock: true })).toBeNull();
    expect(deleteRefusal(jobApplications, { stage: 'applied' })).toBeNull();
    expect(deleteRefusal(jobApplications, { stage: 'rejected', deleted_at: '2026-01-01' }, { pastLock: true })).toMatch(
      /has been deleted/,
    );
  });
});
