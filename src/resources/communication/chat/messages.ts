/** English texts of the chat screens (merged into the catalogue as app.chat.*, and read directly by the staff page). */
export const chatTexts = {
  title: 'Chat',
  conversations: 'Conversations',
  new_chat: 'New chat',
  choose_staff: 'Staff member',
  start: 'Start chat',
  cancel: 'Cancel',
  no_conversations: 'No conversations yet. Start one with "New chat".',
  no_messages: 'No messages yet. Say hello!',
  pick_conversation: 'Choose a conversation, or start a new one.',
  opening: 'Opening the conversation…',
  loading: 'Loading messages…',
  load_older: 'Show older messages',
  load_more: 'Show more conversations',
  message_label: 'Message',
  placeholder: 'Type a message',
  send: 'Send',
  unread: '%{count} unread',
  you: 'You',
  error_title: 'Error!',
  ok: 'OK',
  send_failed: 'Failed to send the message. Please try again.',
  send_network: 'An unexpected error occurred while sending the message. Please try again.',
  fetch_failed: 'Failed to fetch messages. Please try again.',
  open_failed: 'The conversation could not be opened. Please try again.',
  message_staff: 'Message',
  invite_staff: 'Invite to sign in',
  invite_sent: 'An invitation was e-mailed to %{email}.',
  offline: 'Reconnecting…',
};

export type ChatTextKey = keyof typeof chatTexts;

/** A chat text with its %{name} values filled in. */
export function chatText(key: ChatTextKey, values: Record<string, string | number> = {}): string {
  return chatTexts[key].replace(/%\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

export const messages = { app: { chat: chatTexts } };
