// One way to write a route (issue 31.8): every hand-written API route is registered through route(), which
// authorises against the declared access, builds the engine context, looks up the record it names within the
// caller's row scope and read policy, and opens the transaction. The authorization matrix
// (tests/api/authz.test.ts) fails for an API route that is neither the engine's, route()'s, nor on its short list
// of public ones.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  RawServerDefault,
  RouteGenericInterface,
  RouteOptions,
} from 'fastify';
import type { ResolveFastifyReplyReturnType } from 'fastify/types/type-provider.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Row } from '../db/index.js';
import { forbidden } from '../http.js';
import { hasRole, permits, type Principal } from '../../core/resources/access.js';
import type { Action, Role } from '../../core/engine/types.js';
import type { EngineContext } from '../engine/context.js';
import { contextOf, inTransaction, markAuthorised, principalOf } from '../engine/routes.js';
import { getRecord } from '../engine/query.js';

type Req<S extends FastifySchema> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  IncomingMessage,
  S,
  TypeBoxTypeProvider
>;
type Reply<S extends FastifySchema> = FastifyReply<
  RouteGenericInterface,
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  unknown,
  S,
  TypeBoxTypeProvider
>;

/** What a route's handler runs with. */
export interface RouteCall<S extends FastifySchema, R = Row> {
  req: Req<S>;
  reply: Reply<S>;
  /** The caller's engine context outside any transaction: reads see what is committed. */
  ctx: EngineContext;
  /** The record the route names (`record`), as the caller may read it; undefined when it names none. */
  record: R;
  /**
   * Runs fn in one transaction with the caller's context (its writes go through ctx.engine); once committed, the
   * totals of the tables it wrote are stale and every server process has heard of ended sessions.
   */
  transaction<T>(fn: (ctx: EngineContext) => Promise<T>): Promise<T>;
}

/** What a caller must be granted, by declared resource: `{ candidates: 'show' }`, `{ shifts: ['list', 'create'] }`. */
export type Grants = Record<string, Action | string | (Action | string)[]>;

export interface RouteSpec<S extends FastifySchema, R = Row> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  /**
   * Who may call it, as the declarations say: every action named must be granted to the caller's role in that
   * resource's declaration (its `access`, or its actions' `roles`). `roles`: the declared roles themselves, for a
   * route of no one resource (the caller's own account, the agency's inbox), or to narrow `may` to some panels (the
   * schedule is the agency's and the clients', though staff may list their own shifts). At least one of the two.
   */
  may?: Grants;
  roles?: readonly Role[];
  /**
   * Instead of `roles`, a rule of the caller's principal in core/resources/access.ts (a declared report's
   * mayRunReport: its roles, or a custom role granted the report). `may` still applies.
   */
  allows?: (principal: Principal) => boolean;
  /**
   * The record the route is about: a declared resource whose `:id` parameter names it, found in the caller's row
   * scope (404 otherwise) and read as their read policy allows; or a lookup of its own (the caller's agency), which
   * throws to refuse. Either way before the route's schemas look at what was sent: a caller outside learns nothing
   * from a 422.
   */
  record?: string | ((req: FastifyRequest, ctx: EngineContext) => Promise<R | undefined>);
  schema: S;
  bodyLimit?: number;
  /** Before the body is read (an upload refused by its kind costs no memory): Fastify's preParsing hook. */
  preParsing?: RouteOptions['preParsing'];
  /** Sent as built (the engine's answers, whose fields depend on the caller): see server/engine/routes.ts asBuilt. */
  serializerCompiler?: () => (data: unknown) => string;
  handler(
    call: RouteCall<S, R>,
  ): Promise<ResolveFastifyReplyReturnType<TypeBoxTypeProvider, S, RouteGenericInterface> | Reply<S>>;
}

// What the checks before validation found, for the handler: the context and the record.
const found = new WeakMap<FastifyRequest, { ctx: EngineContext; record?: unknown }>();

/** Registers a hand-written API route that authorises, scopes and reads as the declarations say. */
export function route<S extends FastifySchema, R = Row>(app: FastifyInstance, spec: RouteSpec<S, R>) {
  const { may, roles, allows, record } = spec;
  if (!may && !roles && !allows) throw new Error(`${spec.method} ${spec.url}: say who may call it (may, roles)`);
  const grants = Object.entries(may ?? {}).flatMap(([resource, actions]) => {
    const c = app.engine.get(resource);
    if (!c) throw new Error(`${spec.method} ${spec.url}: no declaration named ${resource}`);
    return [actions].flat().map((action) => ({ decl: c.decl, action }));
  });
  const allowed = (p: Principal) =>
    (!roles || hasRole(p, roles)) && (!allows || allows(p)) && grants.every((g) => permits(p, g.decl, g.action));
  const lookup =
    typeof record === 'string'
      ? (() => {
          const c = app.engine.get(record);
          if (!c) throw new Error(`${spec.method} ${spec.url}: no declaration named ${record}`);
          return async (req: FastifyRequest, ctx: EngineContext) => {
            // Not yet validated: an id that is no id at all is left to the route's schema to refuse (422).
            const id = Number((req.params as { id?: unknown }).id);
            return Number.isInteger(id) && id >= 1 && id <= 2147483647 ? getRecord(ctx, c, id) : undefined;
          };
        })()
      : record;
  const handler = markAuthorised(async (req: Req<S>, reply: Reply<S>) => {
    // Set by authorize (below), which runs for every request before its handler.
    const { ctx, record: row } = found.get(req)!;
    return spec.handler({
      req,
      reply,
      ctx,
      record: row as R,
      transaction: (fn) => inTransaction(req, fn),
    });
  });
  app.route({
    method: spec.method,
    url: spec.url,
    // Any signed-in user reaches the check below; a staff token only a route the declarations open to staff.
    config: {
      access: 'any',
      staff: allowed({ loginType: 'staff', role: 'staff' }),
      authorize: async (req: FastifyRequest) => {
        if (!allowed(principalOf(req))) throw forbidden();
        const ctx = await contextOf(app.db, req);
        found.set(req, { ctx, record: lookup && (await lookup(req, ctx)) });
      },
    },
    schema: spec.schema,
    ...(spec.bodyLimit === undefined ? {} : { bodyLimit: spec.bodyLimit }),
    ...(spec.preParsing ? { preParsing: spec.preParsing } : {}),
    ...(spec.serializerCompiler ? { serializerCompiler: spec.serializerCompiler } : {}),
    handler: handler as never,
  });
}
