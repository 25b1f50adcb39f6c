/** The chat API's answers, shared by the server (server/chat/) and the screens. */

/** The side a message was written by: the staff member (Candidate) or their agency (Merchant). */
export type SenderType = 'Candidate' | 'Merchant';

export interface ChatMessage {
  id: number;
  /** The sender's name. */
  sender: string;
  sender_type: SenderType;
  content: string;
  created_at: string;
  /** Written by the caller's side (the agency's users share one side). */
  mine: boolean;
}

/** One row of the agency's conversation list. */
export interface Conversation {
  channel_sid: string;
  candidate_id: number;
  staff_name: string;
  profile_photo: string | null;
  last_message: string | null;
  last_sender_type: SenderType | null;
  last_message_at: string | null;
  unread_count: number;
}
