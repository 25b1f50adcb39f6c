/**
 * The chat API's answers, shared by the server (server/chat/) and the screens: the API's contract
 * (core/contracts/chat.ts).
 */
export type { ChatMessage, Conversation, SenderType } from '../../../contracts/chat';
