/**
 * The chat's states (spec section 4): closed, then opening a channel, then open once a channel_sid is returned.
 * A pure reducer, so the screens and the tests share one definition.
 */
export type ChatState =
  | { status: 'closed' }
  | { status: 'opening'; candidateId: number }
  | { status: 'open'; candidateId: number | null; channelSid: string };

export type ChatAction =
  /** create_channel was asked for this staff member. */
  | { type: 'open'; candidateId: number }
  /** A channel_sid came back (or was already known, from the conversation list). */
  | { type: 'opened'; channelSid: string; candidateId?: number | null }
  /** create_channel failed: back to closed. */
  | { type: 'failed' }
  | { type: 'close' };

export const closedChat: ChatState = { status: 'closed' };

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'open':
      return { status: 'opening', candidateId: action.candidateId };
    case 'opened':
      if (!action.channelSid) return state;
      return {
        status: 'open',
        channelSid: action.channelSid,
        candidateId: action.candidateId ?? (state.status === 'closed' ? null : state.candidateId),
      };
    case 'failed':
      return state.status === 'opening' ? closedChat : state;
    case 'close':
      return closedChat;
  }
}

/**
 * What a send would carry: the trimmed text, or null when nothing may be sent (no open channel, or only whitespace).
 */
export function sendable(state: ChatState, text: string): { channelSid: string; message: string } | null {
  if (state.status !== 'open') return null;
  const message = text.trim();
  return message ? { channelSid: state.channelSid, message } : null;
}
