/** A support request's state: open (waiting for the administrators), answered (waiting for the requester), closed. */
export type SupportStatus = 'open' | 'answered' | 'closed';

/**
 * The status after a reply. The requester replying puts it back with the administrators (open, also when it
 * was answered or closed); an administrator replying to someone else's request answers it. Anyone else's reply
 * (a consultant cannot reach another's request) leaves it as it is.
 */
export function statusAfterReply(
  request: { status: SupportStatus; requesterId: number | null },
  author: { userId: number; role: string },
): SupportStatus {
  if (author.userId === request.requesterId) return 'open';
  if (author.role === 'admin') return 'answered';
  return request.status;
}

/**
 * The declared transition of support_requests' lifecycle that a reply makes (core/resources/notes/resource.ts), or
 * null when it leaves the status as it is: `answer` to answered, `follow_up` back to open.
 */
export function replyTransition(
  request: { status: SupportStatus; requesterId: number | null },
  author: { userId: number; role: string },
): 'answer' | 'follow_up' | null {
  const to = statusAfterReply(request, author);
  if (to === request.status) return null;
  return to === 'answered' ? 'answer' : 'follow_up';
}

/** Who hears of a reply: the requester when someone else wrote it, else the administrators (never the author). */
export function replyAudience(requesterId: number | null, authorId: number, adminIds: number[]): number[] {
  if (requesterId !== null && requesterId !== authorId) return [requesterId];
  return adminIds.filter((id) => id !== authorId);
}
