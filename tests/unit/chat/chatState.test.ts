// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { chatReducer, closedChat, sendable, type ChatState } from '../../../src/resources/communication/chat/chatState';

// Spec section 4: closed, then opening a channel, then open once a channel id is returned. Section 5: an empty
// or whitespace-only message is not sent, and an open channel is required.
describe('the chat states', () => {
  it('goes closed → opening → open once a channel_sid is returned', () => {
    const opening = chatReducer(closedChat, { type: 'open', candidateId: 7 });
    expect(opening).toEqual({ status: 'opening', candidateId: 7 });
    const open = chatReducer(opening, { type: 'opened', channelSid: 'CH1' });
    expect(open).toEqual({ status: 'open', candidateId: 7, channelSid: 'CH1' });
  });

  it('stays opening until a channel_sid comes back (an empty one is not a channel)', () => {
    const opening = chatReducer(closedChat, { type: 'open', candidateId: 7 });
    expect(chatReducer(opening, { type: 'opened', channelSid: '' })).toBe(opening);
  });

  it('a failed opening goes back to closed; a failure after opening changes nothing', () => {
    const opening = chatReducer(closedChat, { type: 'open', candidateId: 7 });
    expect(chatReducer(opening, { type: 'failed' })).toEqual(closedChat);
    const open = chatReducer(opening, { type: 'opened', channelSid: 'CH1' });
    expect(chatReducer(open, { type: 'failed' })).toBe(open);
  });

  it('a known channel (from the conversation list) opens straight from closed, and close closes', () => {
    const open = chatReducer(closedChat, { type: 'opened', channelSid: 'CH2' });
    expect(open).toEqual({ status: 'open', candidateId: null, channelSid: 'CH2' });
    expect(chatReducer(open, { type: 'close' })).toEqual(closedChat);
  });

  it('opening another staff member from an open chat starts again at opening', () => {
    const open: ChatState = { status: 'open', candidateId: 1, channelSid: 'CH1' };
    expect(chatReducer(open, { type: 'open', candidateId: 2 })).toEqual({ status: 'opening', candidateId: 2 });
  });
});

describe('what may be sent', () => {
  const open: ChatState = { status: 'open', candidateId: 1, channelSid: 'CH1' };
  it.each([[''], [' '], ['   '], ['\n'], ['\t \n '], ['\u00a0']])(
    'nothing for %j (empty or only whitespace)',
    (text) => {
      expect(sendable(open, text)).toBeNull();
    },
  );
  it('the trimmed text on the open channel', () => {
    expect(sendable(open, '  Hello there \n')).toEqual({ channelSid: 'CH1', message: 'Hello there' });
  });
  it('nothing without an open channel', () => {
    expect(sendable(closedChat, 'Hello')).toBeNull();
    expect(sendable({ status: 'opening', candidateId: 1 }, 'Hello')).toBeNull();
  });
});
