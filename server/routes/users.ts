import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { acceptUserInvite, readUserInvite } from '../auth/userInvites.js';
import { USER_INVITE_DAYS } from '../../core/resources/users/resource.js';
import { InviteToken, NewPassword } from '../../core/contracts/auth.js';
import { UserInviteAccepted, UserInviteInfo } from '../../core/contracts/users.js';

/**
 * The invitation link of an agency or client user (issue 14): the page at /invite/<token> asks whom it is for,
 * then sets the password (the link's action, server/auth/userInvites.ts); the user then signs in to their panel.
 * Inviting, resending and deactivating are the users resource's declared actions (server/behaviours/users.ts).
 */
/** The token of an invitation's path, as sent (the schema has not checked it yet). */
export const tokenOf = (req: FastifyRequest) => String((req.params as { token?: unknown }).token ?? '');

export async function userRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/api/user_invites/:token', {
    config: { access: 'public' },
    schema: {
      tags: ['auth'],
      summary: 'Whom a user invitation link is for',
      description: `A link works once, within ${USER_INVITE_DAYS} days; 404 once used, expired or replaced.`,
      params: InviteToken,
      response: { 200: UserInviteInfo },
    },
    handler: async (req) => readUserInvite(app, req.params.token),
  });
  app.post('/api/user_invites/:token', {
    // The link first: a token that opens no invitation answers 404 whatever the body holds.
    config: { access: 'public', authorize: async (req) => void (await readUserInvite(app, tokenOf(req))) },
    schema: {
      tags: ['auth'],
      summary: 'Set a password through a user invitation',
      description: 'Uses the link up; the user then signs in to the panel named by login_type.',
      params: InviteToken,
      body: NewPassword,
      response: { 200: UserInviteAccepted },
    },
    handler: async (req) => {
      const done = await acceptUserInvite(app, req.params.token, req.body.password);
      return { message: 'Your password is set. Sign in with your e-mail address and the new password.', ...done };
    },
  });
}
