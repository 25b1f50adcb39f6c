import { PASSWORD_MIN } from '../../core/domain/accounts/passwords';

/** English texts of the staff member's own page. */
export const staffTexts = {
  sign_in_title: 'Staff sign in',
  sign_in_intro: 'Sign in to read and answer messages from your agency.',
  email: 'Email',
  password: 'Password',
  sign_in: 'Sign in',
  fill_both: 'Enter your e-mail address and password.',
  network: 'The server could not be reached. Please try again.',
  invite_title: 'Choose your password',
  invite_intro: 'Hello %{name}, choose a password to sign in to %{agency}.',
  new_password: 'New password',
  password_rule: `At least ${PASSWORD_MIN} characters.`,
  set_password: 'Set password and sign in',
  loading: 'Loading…',
  chat_title: 'Messages',
  sign_out: 'Sign out',
  signed_in_as: 'Signed in as %{name}. Messages to and from your agency.',
  reconnecting: 'Reconnecting…',
  no_messages: 'No messages yet. Write to your agency here.',
  notifications_title: 'Notifications',
  no_notifications: 'No notifications yet. Your bookings and their changes appear here.',
};
