import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { HttpError } from '../http.js';
import { decoyHash, verifyPassword } from './passwords.js';
import { HASH_RETRY_AFTER_SECONDS } from './hashQueue.js';
import {
  authUserOf,
  MAY_SIGN_IN,
  USER_PRIVILEGES,
  type AuthUser,
  type PanelLoginType,
  type StoredUser,
} from './sessions.js';
import { storedLoginType } from '../../core/engine/types.js';
import { acceptInvite, INVITE_LIFETIME_DAYS, inviteStaff, readInvite } from './staffInvites.js';
import { rolesOf } from '../../core/resources/access.js';
import { route } from '../routes/route.js';
import {
  CandidateIdParams,
  Credentials,
  InviteToken,
  NewPassword,
  Session,
  SignedIn,
  StaffInvite,
  StaffInviteInfo,
} from '../../core/contracts/auth.js';
import { Said } from '../../core/contracts/common.js';

/** The answer to a client's e-mail and password tried on the agency panel. */
export const CLIENT_HINT =
  'Client? This e-mail address and password are for a client panel. Choose Client and sign in.';

function describe(
  u: Pick<
    AuthUser,
    'id' | 'name' | 'email' | 'role' | 'loginType' | 'merchant_id' | 'client_id' | 'candidate_id' | 'privileges'
  >,
  names: { client?: string | null; agency?: string | null; timeZone?: string | null } = {},
) {
  return {
    login_type: storedLoginType(u.loginType),
    merchant_id: u.merchant_id,
    ...(u.loginType === 'client' ? { client_id: u.client_id, client_name: names.client ?? null } : {}),
    // A staff member's own staff record (the sender_id of their chat channel), and their agency's name: the staff
    // page has no other way to learn it (the panels read it from the agency's profile), and the agency's time zone,
    // in which the page shows shift times (a phone abroad still shows the times the agency booked).
    ...(u.loginType === 'staff'
      ? { candidate_id: u.candidate_id, agency_name: names.agency ?? null, agency_time_zone: names.timeZone ?? null }
      : {}),
    user: {
      id: u.id,
      name: u.name,
      email: u.email,
      role: u.role,
      // A custom role's privileges: the screens ask the same permits() the API does (src/providers/authProvider.ts).
      ...(u.role === 'custom' ? { privileges: u.privileges ?? [] } : {}),
      ...(u.loginType === 'client' ? { client_id: u.client_id } : {}),
    },
  };
}

/** Staff logins of one address (at different agencies) that a sign-in tries; agency and client logins are unique. */
export const STAFF_LOGINS_TRIED = 5;

export async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const login = (loginType: PanelLoginType) => async (req: any, reply: any) => {
    // As stored: compatibility forms folded (a full-width address typed finds the account it looks like), lower case.
    const email = String(req.body.email).normalize('NFKC').trim().toLowerCase();
    const password = String(req.body.password);
    // A full hashing queue refuses before anything else, so a flood's refusals cost no hash and count no attempt.
    const busy = app.hashing.refusal(req.ip);
    if (busy) {
      reply.header('retry-after', String(HASH_RETRY_AFTER_SECONDS));
      throw busy;
    }
    // Counted before the password is checked, so parallel guesses cannot all get in under the limit.
    const attempt = await app.throttle.attempt(app.db, email, req.ip);
    if (attempt.wait > 0) {
      reply.header('retry-after', String(attempt.wait));
      const minutes = Math.ceil(attempt.wait / 60);
      throw new HttpError(
        429,
        `Too many failed sign-in attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
      );
    }
    // A user of an inactive or deleted client is refused like a wrong password: the answer tells nothing about
    // the account. Staff logins are per agency, so one address may have several (a person working for two
    // agencies): the password chooses, tried on each, newest first, up to STAFF_LOGINS_TRIED.
    const users = await app.db.query<
      StoredUser & {
        password_hash: string | null;
        client_name: string | null;
        agency_name: string | null;
        agency_time_zone: string | null;
      }
    >(
      `select u.id, u.merchant_id, u.client_id, u.candidate_id, u.kind, u.role, ${USER_PRIVILEGES}, u.name, u.email, u.password_hash, c.name as client_name,
              (select company_name from merchants m where m.id = u.merchant_id) as agency_name,
              (select time_zone from merchants m where m.id = u.merchant_id) as agency_time_zone
         from users u left join clients c on c.id = u.client_id
        where u.kind = $1 and lower(u.email) = $2 and ${MAY_SIGN_IN}
        order by u.id desc limit ${STAFF_LOGINS_TRIED}`,
      [storedLoginType(loginType), email],
    );
    // Unknown e-mail and wrong password take the same time and give the same answer.
    const check = (hash: string) =>
      verifyPassword(password, hash, { queue: app.hashing, key: req.ip }).catch((e) => {
        if (e instanceof HttpError) reply.header('retry-after', String(HASH_RETRY_AFTER_SECONDS));
        throw e;
      });
    let user: (typeof users)[number] | undefined;
    if (users.length === 0) await check(await decoyHash());
    for (const candidate of users) {
      // An invited user has no password until they follow their link: the same cost, and never a match.
      const ok = await check(candidate.password_hash ?? (await decoyHash()));
      if (!ok || !candidate.password_hash) continue;
      user = candidate;
      break;
    }
    if (!user) {
      app.hashing.failed(req.ip);
      if (loginType === 'agency' && (await isClientSignIn(email, password, req.ip)))
        return reply.status(401).send({ message: CLIENT_HINT, hint: 'client' });
      throw new HttpError(401, 'The e-mail address or password is incorrect.');
    }
    await app.throttle.succeeded(app.db, attempt);
    const { token, expiresAt } = await app.sessions.create(user.id);
    return reply.status(200).send({
      token,
      token_expiration: expiresAt,
      ...describe(authUserOf(user), {
        client: user.client_name,
        agency: user.agency_name,
        timeZone: user.agency_time_zone,
      }),
    });
  };

  /**
   * A client's e-mail and password tried on the agency panel (issue 14): said so, rather than "incorrect". Only
   * the right password earns the hint, and every failed agency sign-in checks one (the client's, or the decoy),
   * so neither the answer nor its timing tells whether a client account exists.
   */
  const isClientSignIn = async (email: string, password: string, ip: string) => {
    const [client] = await app.db.query<{ password_hash: string | null }>(
      `select u.password_hash from users u left join clients c on c.id = u.client_id where u.kind = 'client' and lower(u.email) = $1 and ${MAY_SIGN_IN}`,
      [email],
    );
    const ok = await verifyPassword(password, client?.password_hash ?? (await decoyHash()), {
      queue: app.hashing,
      key: ip,
    });
    return !!client?.password_hash && ok;
  };

  /** The names a session answer carries: a client user's client, a staff member's agency. */
  const namesOf = async (u: Pick<AuthUser, 'loginType' | 'merchant_id' | 'client_id'>) => {
    if (u.loginType === 'client' && u.client_id)
      return {
        client: (
          await app.db.query('select name from clients where id = $1 and merchant_id = $2', [
            u.client_id,
            u.merchant_id,
          ])
        )[0]?.name,
      };
    if (u.loginType === 'staff') {
      const [m] = await app.db.query<{ company_name: string; time_zone: string | null }>(
        'select company_name, time_zone from merchants where id = $1',
        [u.merchant_id],
      );
      return { agency: m?.company_name, timeZone: m?.time_zone };
    }
    return {};
  };

  const panels = {
    agency: 'the agency panel',
    client: 'the client panel',
    staff: "the staff member's own page",
  } as const;
  // The spec's addresses name each panel by its stored login type: /api/admin_login is the agency's.
  for (const loginType of ['agency', 'client', 'staff'] as const) {
    const path = `/api/${storedLoginType(loginType)}_login`;
    app.post(path, {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: `Sign in to ${panels[loginType]}`,
        body: Credentials,
        response: { 200: SignedIn },
      },
      handler: login(loginType),
    });
    route(app, {
      method: 'GET',
      url: path,
      roles: rolesOf(loginType),
      schema: { tags: ['auth'], summary: 'The signed-in user, with role', response: { 200: Session } },
      handler: async ({ req }) => describe(req.auth!, await namesOf(req.auth!)),
    });
  }

  // Staff sign in too: an agency user invites a staff member by e-mail, who sets a password through the link.
  route(app, {
    method: 'POST',
    url: '/api/candidates/:id/staff_invite',
    // Who may change a staff member's record may let them sign in; one outside the caller's scope is not found.
    may: { candidates: 'edit' },
    record: 'candidates',
    schema: {
      tags: ['auth'],
      summary: 'Invite a staff member to sign in',
      description: `E-mails the staff member a single-use link to set their password, valid ${INVITE_LIFETIME_DAYS} days; earlier links stop working.`,
      params: CandidateIdParams,
      response: { 200: StaffInvite },
    },
    handler: async ({ record, transaction }) => {
      const invitation = await transaction((ctx) => inviteStaff(ctx, record.id));
      return {
        message: `An invitation was e-mailed to ${invitation.email}.`,
        email: invitation.email,
        expires_at: invitation.expiresAt,
      };
    },
  });
  app.get('/api/staff_invites/:token', {
    config: { access: 'public' },
    schema: {
      tags: ['auth'],
      summary: 'Whom an invitation link is for',
      params: InviteToken,
      response: { 200: StaffInviteInfo },
    },
    handler: async (req) => readInvite(app, req.params.token),
  });
  app.post('/api/staff_invites/:token', {
    // The link first: a token that opens no invitation answers 404 whatever the body holds.
    config: {
      access: 'public',
      authorize: async (req) => void (await readInvite(app, String((req.params as { token?: unknown }).token ?? ''))),
    },
    schema: {
      tags: ['auth'],
      summary: 'Set a staff password through an invitation, and sign in',
      params: InviteToken,
      body: NewPassword,
      response: { 200: SignedIn },
    },
    handler: async (req) => {
      const userId = await acceptInvite(app, req.params.token, req.body.password);
      const [row] = await app.db.query<StoredUser>(
        `select u.id, u.merchant_id, u.client_id, u.candidate_id, u.kind, u.role, ${USER_PRIVILEGES}, u.name, u.email from users u where u.id = $1`,
        [userId],
      );
      const user = authUserOf(row);
      const { token, expiresAt } = await app.sessions.create(userId);
      return { token, token_expiration: expiresAt, ...describe(user, await namesOf(user)) };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/logout',
    roles: rolesOf('agency', 'client', 'staff'),
    schema: { tags: ['auth'], summary: 'Revoke the bearer token', response: { 200: Said } },
    handler: async ({ req }) => {
      await app.sessions.revoke(req.auth!.token_hash);
      return { message: 'Signed out.' };
    },
  });
}
