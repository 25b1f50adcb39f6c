/** Agency and client users' invitation links (server/routes/users.ts). */
import Type, { type Static } from 'typebox';
import { Nullable, OneOf } from './common.js';

export const UserInviteInfo = Type.Object({
  name: Type.String(),
  email: Type.String(),
  agency: Type.String(),
  login_type: OneOf(['admin', 'client']),
  client_name: Nullable(Type.String()),
});
export type UserInviteInfo = Static<typeof UserInviteInfo>;

export const UserInviteAccepted = Type.Object({
  message: Type.String(),
  email: Type.String(),
  login_type: OneOf(['admin', 'client']),
});
export type UserInviteAccepted = Static<typeof UserInviteAccepted>;
