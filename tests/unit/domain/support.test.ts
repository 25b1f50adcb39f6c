// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import {
  replyAudience,
  replyTransition,
  statusAfterReply,
  type SupportStatus,
} from '../../../core/domain/support/support';
import { supportRequests } from '../../../core/resources/notes/resource';

const REQUESTER = 7;

describe('statusAfterReply', () => {
  it.each<[SupportStatus, { userId: number; role: string }, SupportStatus]>([
    ['open', { userId: 1, role: 'admin' }, 'answered'],
    ['answered', { userId: 1, role: 'admin' }, 'answered'],
    ['closed', { userId: 1, role: 'admin' }, 'answered'],
    ['answered', { userId: REQUESTER, role: 'consultant' }, 'open'],
    ['closed', { userId: REQUESTER, role: 'consultant' }, 'open'],
    // An administrator asking for help is the requester of their own request.
    ['answered', { userId: REQUESTER, role: 'admin' }, 'open'],
    ['open', { userId: 9, role: 'consultant' }, 'open'],
  ])('%s, reply by %o → %s', (status, author, expected) => {
    expect(statusAfterReply({ status, requesterId: REQUESTER }, author)).toBe(expected);
  });

  test.prop([fc.constantFrom<SupportStatus>('open', 'answered', 'closed'), fc.constantFrom('admin', 'consultant')])(
    'the requester replying always puts it back with the administrators',
    (status, role) => {
      expect(statusAfterReply({ status, requesterId: REQUESTER }, { userId: REQUESTER, role })).toBe('open');
    },
  );
});

describe('replyTransition', () => {
  test.prop([
    fc.constantFrom<SupportStatus>('open', 'answered', 'closed'),
    fc.constantFrom(1, REQUESTER, 9),
    fc.constantFrom('admin', 'consultant'),
  ])(
    "is the declared transition from the request's state to the status the reply leads to, or none",
    (status, userId, role) => {
      const to = statusAfterReply({ status, requesterId: REQUESTER }, { userId, role });
      const move = replyTransition({ status, requesterId: REQUESTER }, { userId, role });
      if (to === status) expect(move).toBeNull();
      else
        expect(supportRequests.lifecycle!.transitions.find((t) => t.action === move)).toMatchObject({
          from: expect.arrayContaining([status]),
          to,
        });
    },
  );
});

describe('replyAudience', () => {
  it.each<[number | null, number, number[], number[]]>([
    [REQUESTER, 1, [1, 2], [REQUESTER]],
    [REQUESTER, REQUESTER, [1, 2], [1, 2]],
    [1, 1, [1, 2], [2]],
    [null, 1, [1, 2], [2]],
  ])('requester %s, author %s, admins %o → %o', (requester, author, admins, expected) => {
    expect(replyAudience(requester, author, admins)).toEqual(expected);
  });

  test.prop([
    fc.option(fc.integer({ min: 1, max: 20 }), { nil: null }),
    fc.integer({ min: 1, max: 20 }),
    fc.uniqueArray(fc.integer({ min: 1, max: 20 })),
  ])('never tells the author of their own reply', (requester, author, admins) => {
    expect(replyAudience(requester, author, admins)).not.toContain(author);
  });
});
