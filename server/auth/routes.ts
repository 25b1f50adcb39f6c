import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http.js';
import { decoyHash, verifyPassword } from './passwords.js';
import { MAY_SIGN_IN, type AuthUser, type LoginType } from './sessions.js';

const credentials = {
  type: 'object',
  required: ['email', 'password'],
  properties: {
    email: { type: 'string', minLength: 1, maxLength: 254 },
    password: { type: 'string', minLength: 1, maxLength: 1024 },
  },
} as const;

const userShape = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    email: { type: 'string' },
    role: { type: 'string' },
    client_id: { type: ['integer', 'null'] },
  },
} as const;

const sessionShape = {
  type: 'object',
  properties: {
    token: { type: 'string' },
    token_expiration: { type: 'string', format: 'date-time' },
    login_type: { type: 'string', enum: ['admin', 'client'] },
    merchant_id: { type: 'integer' },
    client_id: { type: ['integer', 'null'] },
    client_name: { type: ['string', 'null'] },
    user: userShape,
  },
} as const;

function describe(u: Pick<AuthUser, 'id' | 'name' | 'email' | 'role' | 'kind' | 'merchant_id' | 'client_id'>, clientName?: string | null) {
  return {
    login_type: u.kind,
    merchant_id: u.merchant_id,
    ...(u.kind === 'client' ? { client_id: u.client_id, client_name: clientName ?? null } : {}),
    user: { id: u.id, name: u.name, email: u.email, role: u.role, ...(u.kind === 'client' ? { client_id: u.client_id } : {}) },
  };
}

export async function authRoutes(app: FastifyInstance) {
  const login = (kind: LoginType) => async (req: any, reply: any) => {
    const email = String(req.body.email).trim().toLowerCase();
    const password = String(req.body.password);
    // Counted before the password is checked, so parallel guesses cannot all get in under the limit.
    const attempt = await app.throttle.attempt(app.db, email, req.ip);
    if (attempt.wait > 0) {
      reply.header('retry-after', String(attempt.wait));
      const minutes = Math.ceil(attempt.wait / 60);
      throw new HttpError(429, `Too many failed sign-in attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`);
    }
    // A user of an inactive or deleted client is refused like a wrong password: the answer tells nothing about
    // the account.
    const [user] = await app.db.query(
      `select u.id, u.merchant_id, u.client_id, u.kind, u.role, u.name, u.email, u.password_hash, c.name as client_name
         from users u left join clients c on c.id = u.client_id
        where u.kind = $1 and lower(u.email) = $2 and ${MAY_SIGN_IN}`,
      [kind, email],
    );
    // Unknown e-mail and wrong password take the same time and give the same answer.
    const ok = await verifyPassword(password, user?.password_hash ?? (await decoyHash()));
    if (!user || !ok) throw new HttpError(401, 'The e-mail address or password is incorrect.');
    await app.throttle.succeeded(app.db, attempt);
    const { token, expiresAt } = await app.sessions.create(user.id);
    return reply.status(200).send({ token, token_expiration: expiresAt, ...describe(user as any, user.client_name) });
  };

  for (const kind of ['admin', 'client'] as const) {
    app.post(`/api/${kind}_login`, {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: `Sign in to the ${kind === 'admin' ? 'agency' : 'client'} panel`,
        body: credentials,
        response: { 200: sessionShape },
      },
      handler: login(kind),
    });
    app.get(`/api/${kind}_login`, {
      config: { access: kind },
      schema: { tags: ['auth'], summary: 'The signed-in user, with role', response: { 200: sessionShape } },
      handler: async (req) => {
        const u = req.auth!;
        const [c] = u.client_id ? await app.db.query('select name from clients where id = $1 and merchant_id = $2', [u.client_id, u.merchant_id]) : [];
        return describe(u, c?.name);
      },
    });
  }

  app.post('/api/logout', {
    config: { access: 'any' },
    schema: { tags: ['auth'], summary: 'Revoke the bearer token' },
    handler: async (req) => {
      await app.sessions.revoke(req.auth!.token_hash);
      return { message: 'Signed out.' };
    },
  });
}
