/** The chat API's answers, shared by the server (server/chat/) and the screens: the API's contract (server/contracts/chat.ts). */
export type { ChatMessage, Conversation, SenderType } from '../../../../server/contracts/chat';
