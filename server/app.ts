import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { installPlans } from './subscription/plans.js';
import { DEFAULT_RATE_LIMIT_PER_MINUTE, fastifyTrustProxy, type Config } from './config.js';
import type { Db } from './db/index.js';
import {
  checkQueryBounds,
  forbidden,
  PUBLIC_BODY_LIMIT,
  HttpError,
  installErrorHandler,
  installSecurityHeaders,
  isApiRoute,
} from './http.js';
import { authRoutes } from './auth/routes.js';
import { SessionStore, type AuthUser } from './auth/sessions.js';
import { LoginThrottle } from './auth/throttle.js';
import { HashQueue } from './auth/hashQueue.js';
import { ApiRateLimit, type RateLimitOptions } from './auth/rateLimit.js';
import { passwordHashing } from './auth/passwords.js';
import { Cluster, shareTotals } from './cluster.js';
import { shellRoutes } from './routes/shell.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { reportRoutes } from './routes/reports.js';
import { accountRoutes } from './routes/account.js';
import { fileRoutes } from './files/routes.js';
import { compileAll, engineRoutes, recordVisibility } from './engine/routes.js';
import { capabilityRoutes } from './engine/capability.js';
import { registerFileOwnerCheck } from './files/store.js';
import { TotalCache } from './engine/totals.js';
import { areas as productAreas } from './areas/index.js';
import type { ServerArea } from './areas/area.js';
import { registryOf, type Registry } from './areas/registry.js';
import type { PeriodicJob } from './jobs/periodic.js';
import type { JobRuntime } from './jobs/queue.js';
import { useSecretLinks } from './notifications/outbox.js';
import { exportRoutes } from './exports/routes.js';
import { documentRoutes } from './documents/routes.js';
import { jobRoutes } from './jobs/routes.js';
import { numberSeriesRoutes } from './routes/numberSeries.js';
import type { ResourceBehaviour } from './engine/context.js';
import { declarations as allDeclarations } from '../core/resources/declarations.js';
import type { ResourceDeclaration } from '../core/engine/types.js';
import { lazySchemaCompilers } from './schemaCompilers.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    sessions: SessionStore;
    throttle: LoginThrottle;
    /** Password hashing of sign-ins, bounded (server/auth/hashQueue.ts). */
    hashing: HashQueue;
    /** The message bus between the server processes on this database (cache invalidation). */
    cluster: Cluster;
    /** Cached list totals of the engine (shared with other processes through the cluster). */
    totals: TotalCache;
    /** Every registered route (HEAD included), in registration order. */
    routes: RegisteredRoute[];
    /** What the areas add, gathered once (server/areas/registry.ts). */
    registry: Registry;
    /** What the job worker runs with: the areas' job kinds and periodic jobs on this app's engine and totals. */
    jobs: JobRuntime & { periodic: PeriodicJob[] };
    /** The rate limits' namespace (a test app's own; '' in the product): limits beside the API's share it. */
    rateLimitNamespace: string;
  }
  interface FastifyRequest {
    auth: AuthUser | null;
  }
}

export interface RegisteredRoute {
  method: string;
  url: string;
  /** Its handler: isAuthorisedRoute (server/engine/routes.ts) tells the engine's and route()'s from any other. */
  handler: unknown;
}

export interface AppOptions {
  db: Db;
  config: Pick<Config, 'tokenLifetimeSeconds' | 'staticDir'> &
    Partial<Pick<Config, 'trustProxy' | 'rateLimitPerMinute' | 'passwordHashing' | 'plans'>>;
  /** Fastify's logger: off, or its options (server/logging.ts loggerOptions: tokens in paths redacted). */
  logger?: FastifyServerOptions['logger'];
  throttle?: LoginThrottle;
  /** The sign-ins' hashing queue; the process's own (passwordHashing) unless a test brings one. */
  hashing?: HashQueue;
  /** The API rate limit's namespace (tests give each app its own); its limit is config.rateLimitPerMinute. */
  rateLimit?: Partial<Pick<RateLimitOptions, 'namespace'>>;
  /** The entities served under /api; every declared one unless a test brings its own. */
  declarations?: ResourceDeclaration[];
  /** The server's clock (ctx.now); the system clock unless a test fixes it. */
  clock?: () => Date;
  /** Server behaviours of extra declarations (a test's own entity), by resource name, over the product's. */
  behaviours?: Record<string, ResourceBehaviour>;
  /** The areas served; the product's (server/areas/index.ts) unless a test brings its own (a job kind of its own). */
  areas?: readonly ServerArea[];
}

export async function buildApp({
  db,
  config,
  logger = false,
  throttle,
  hashing,
  rateLimit,
  declarations = allDeclarations,
  clock = () => new Date(),
  behaviours: extraBehaviours = {},
  areas = productAreas,
}: AppOptions): Promise<FastifyInstance> {
  const registry = registryOf(areas);
  const app = Fastify({
    logger,
    trustProxy: fastifyTrustProxy(config.trustProxy ?? false),
    bodyLimit: 2 * 1024 * 1024,
    ajv: { customOptions: { allErrors: true, coerceTypes: true, removeAdditional: false } },
    // Each route's schemas are compiled on its first request, not all at start (server/schemaCompilers.ts).
    schemaController: lazySchemaCompilers,
  });
  // Every route as registered (method and Fastify url): the authorization matrix test checks it lists them all.
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) routes.push({ method, url: r.url, handler: r.handler });
    // A public route reads a few KB unless it says otherwise (a link's action): 413 before parsing.
    if (r.config?.access === 'public' && r.bodyLimit === undefined) r.bodyLimit = PUBLIC_BODY_LIMIT;
  });
  app.decorate('routes', routes);
  app.decorate('db', db);
  app.decorate('clock', clock);
  const cluster = await Cluster.start(db);
  app.addHook('onClose', () => cluster.close());
  app.decorate('cluster', cluster);
  app.decorate('sessions', new SessionStore(db, config.tokenLifetimeSeconds, cluster));
  app.decorate('throttle', throttle ?? new LoginThrottle());
  // One queue for the process: the thread pool it protects is the process's.
  if (config.passwordHashing) Object.assign(passwordHashing.options, config.passwordHashing);
  // The installation's plans, which the engine's hooks read wherever a write runs (issue 35).
  if (config.plans) installPlans(config.plans);
  app.decorate('hashing', hashing ?? passwordHashing);
  app.decorate('totals', new TotalCache());
  shareTotals(cluster, app.totals);
  app.decorateRequest('auth', null);
  installErrorHandler(app);
  await installSecurityHeaders(app);
  const limitApi = new ApiRateLimit({
    perMinute: config.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE,
    ...rateLimit,
  });
  app.decorate('rateLimitNamespace', limitApi.options.namespace);
  // Requests counted here and not yet written go in before the app lets go of the database.
  app.addHook('onClose', () => limitApi.close(db));

  await app.register(swagger, {
    openapi: {
      info: { title: 'Staffing back office API', version: '1' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  // The API's description is for anyone: every route Swagger UI adds (its page, files and the JSON) is public.
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, access: 'public' };
    });
    await docs.register(swaggerUi, { routePrefix: '/api/docs' });
  });

  // Deny by default, decided on the matched route and never on the raw URL (the router decodes '/%61pi/clients'
  // to /api/clients): a route needs a valid token unless its config says 'public'. A route that says nothing
  // needs one too ('any'), so forgetting the config never opens a route.
  app.addHook('onRequest', async (req, reply) => {
    // An unmatched path reaches only the not-found handler, which holds no data.
    if (req.is404) return;
    const access = req.routeOptions.config.access ?? 'any';
    const api = isApiRoute(req);
    if (access === 'public' && !api) return; // the app's own pages and files
    const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    req.auth = token ? await app.sessions.resolve(token) : null;
    // Counted per user, or per address without a valid token, across every process, before any handler runs.
    if (api) await limitApi.check(app.db, req, reply);
    if (access === 'public') return;
    if (!req.auth) throw new HttpError(401, 'Your session has expired. Please sign in again.');
    // A staff token reaches only what is theirs: never an 'any' route unless the route lets staff in.
    if (
      req.auth.loginType === 'staff'
        ? access !== 'staff' && !req.routeOptions.config.staff
        : access !== 'any' && access !== req.auth.loginType
    )
      throw forbidden();
  });
  // Authorization first (the route's own rule), then bounded input: no query value (the free-text q included)
  // longer than the API reads. Both before the route's schemas validate what was sent.
  app.addHook('preValidation', async (req) => {
    await req.routeOptions.config.authorize?.(req);
    if (isApiRoute(req)) checkQueryBounds(req.query);
  });

  // Compiled first: every route authorises against the declarations (server/routes/route.ts).
  app.decorate('registry', registry);
  app.decorate('engine', compileAll(declarations, { ...registry.behaviours, ...extraBehaviours }, app.totals));
  app.decorate('jobs', {
    engine: app.engine,
    totals: app.totals,
    jobKinds: registry.jobKinds,
    periodic: registry.periodic,
  });
  useSecretLinks(registry.links);
  await app.register(authRoutes);
  await app.register(shellRoutes);
  await app.register(accountRoutes);
  await app.register(fileRoutes);
  registerFileOwnerCheck(recordVisibility(app.engine));
  await app.register(engineRoutes, { registry: app.engine });
  await app.register(capabilityRoutes, { registry: app.engine });
  for (const area of registry.areas) for (const routes of area.routes ?? []) await app.register(routes);
  // The dashboard counts lists of every area.
  await app.register(dashboardRoutes);
  // The declared reports (core/resources/reports.ts), each over its base resource's list.
  await app.register(reportRoutes);
  // Engine-wide calls that serve every declared resource: exports, printed lists, job progress.
  await app.register(exportRoutes);
  await app.register(documentRoutes);
  await app.register(jobRoutes);
  await app.register(numberSeriesRoutes);
  app.get('/api/health', { config: { access: 'public' }, schema: { hide: true } }, async () => ({ ok: true }));

  const indexHtml = config.staticDir && join(config.staticDir, 'index.html');
  if (config.staticDir && indexHtml && existsSync(indexHtml)) {
    const root = config.staticDir;
    // The app's files and pages are public: every route of this scope says so (the app's own files included).
    await app.register(async (site) => {
      site.addHook('onRoute', (route) => {
        route.config = { ...route.config, access: 'public' };
      });
      await site.register(fastifyStatic, {
        root,
        wildcard: false,
        index: false,
        // Vite names each built file after its content (assets/index-3f2a9c1b.js): a name never holds other bytes, so
        // a browser keeps it without asking again. index.html (below) is always asked again, and names the new files.
        setHeaders: (reply, path) => {
          if (/[\\/]assets[\\/]/.test(path)) reply.header('cache-control', 'public, max-age=31536000, immutable');
        },
      });
      // The single-page app owns every other path: its router shows the screen or the not-found page.
      site.get('/*', { schema: { hide: true } }, (req, reply) => {
        // The router decoded the path; an unknown API address is a 404, never the app's page.
        if (/^\/*api(\/|$)/.test((req.params as { '*': string })['*']))
          return reply.status(404).header('cache-control', 'no-store').send({ message: 'Not found.' });
        // Always asked again (never a stale page naming old asset files); the hashed assets themselves may be cached.
        return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
      });
    });
  }
  return app;
}
