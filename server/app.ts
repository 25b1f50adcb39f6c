import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from './config.js';
import type { Db } from './db/index.js';
import { forbidden, HttpError, installErrorHandler } from './http.js';
import { authRoutes } from './auth/routes.js';
import { SessionStore, type AuthUser } from './auth/sessions.js';
import { LoginThrottle } from './auth/throttle.js';
import { shellRoutes } from './routes/shell.js';
import { engineRoutes } from './engine/routes.js';
import { declarations as allDeclarations } from '../src/resources/declarations.js';
import type { ResourceDeclaration } from '../src/engine/types.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    sessions: SessionStore;
    throttle: LoginThrottle;
  }
  interface FastifyRequest {
    auth: AuthUser | null;
  }
}

export interface AppOptions {
  db: Db;
  config: Pick<Config, 'tokenLifetimeSeconds' | 'staticDir'>;
  logger?: boolean;
  throttle?: LoginThrottle;
  /** The entities served under /api; every declared one unless a test brings its own. */
  declarations?: ResourceDeclaration[];
}

export async function buildApp({ db, config, logger = false, throttle, declarations = allDeclarations }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger, trustProxy: false, bodyLimit: 2 * 1024 * 1024, ajv: { customOptions: { allErrors: true, coerceTypes: true, removeAdditional: false } } });
  app.decorate('db', db);
  app.decorate('sessions', new SessionStore(db, config.tokenLifetimeSeconds));
  app.decorate('throttle', throttle ?? new LoginThrottle());
  app.decorateRequest('auth', null);
  installErrorHandler(app);

  await app.register(swagger, {
    openapi: {
      info: { title: 'Staffing back office API', version: '1' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  // Deny by default: every /api route needs a valid token unless it says it is public.
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/api/') || req.url === '/api/docs' || req.url.startsWith('/api/docs/')) return;
    const access = req.routeOptions.config?.access;
    if (access === 'public' || !req.routeOptions.url) return;
    const header = req.headers.authorization ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    const user = token ? await app.sessions.resolve(token) : null;
    if (!user) throw new HttpError(401, 'Your session has expired. Please sign in again.');
    req.auth = user;
    if (access !== 'any' && access !== user.kind) throw forbidden();
  });

  await app.register(authRoutes);
  await app.register(shellRoutes);
  await app.register(engineRoutes, { declarations });
  app.get('/api/health', { config: { access: 'public' }, schema: { hide: true } }, async () => ({ ok: true }));

  const indexHtml = config.staticDir && join(config.staticDir, 'index.html');
  if (config.staticDir && indexHtml && existsSync(indexHtml)) {
    await app.register(fastifyStatic, { root: config.staticDir, wildcard: false, index: false });
    // The single-page app owns every other path: its router shows the screen or the not-found page.
    app.get('/*', { schema: { hide: true }, config: { access: 'public' } }, (req, reply) => {
      if (req.url.startsWith('/api')) return reply.status(404).send({ message: 'Not found.' });
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  }
  return app;
}
