import { ApiFailure, request } from '../../../providers/request';
import { chatText } from './messages';
import type { Channel, Conversations, Messages, Sent } from '../../../../core/contracts/chat';

/** The spec's create_channel: the staff member is the sender, their agency the receiver. */
export const createChannel = (candidateId: number, merchantId: number) =>
  request<Channel>('/chats/create_channel', {
    method: 'POST',
    json: { sender_id: candidateId, sender_type: 'Candidate', receiver_id: merchantId, receiver_type: 'Merchant' },
  }).then((r) => r.channel_sid);

export const sendMessage = (channelSid: string, message: string) =>
  request<Sent>('/chats/send_message_to_channel', { method: 'POST', json: { channel_sid: channelSid, message } });

export const fetchMessages = (channelSid: string, before?: number) =>
  request<Messages>(
    `/chats/fetch_messages?channel_sid=${encodeURIComponent(channelSid)}${before ? `&before=${before}` : ''}`,
  );

export const markRead = (channelSid: string, messageId: number) =>
  request('/chats/mark_read', { method: 'POST', json: { channel_sid: channelSid, message_id: messageId } });

export const fetchConversations = (page: number, perPage: number) =>
  request<Conversations>(`/chats/conversations?page=${page}&per_page=${perPage}`);

/**
 * The words of a failed send (spec section 8): the server's message when it answered, the generic one when its
 * answer says nothing, and the network one when it could not be reached.
 */
export function sendFailureText(e: unknown): string {
  if (e instanceof ApiFailure) return (e.body?.message as string | undefined) || chatText('send_failed');
  return chatText('send_network');
}

/** The words of a failed fetch: the server's message, or the generic one. */
export function fetchFailureText(e: unknown): string {
  if (e instanceof ApiFailure) return (e.body?.message as string | undefined) || chatText('fetch_failed');
  return chatText('fetch_failed');
}
