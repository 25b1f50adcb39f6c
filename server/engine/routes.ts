import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/index.js';
import { forbidden, HttpError } from '../http.js';
import type { Action, ActionDeclaration, LoginType, ResourceDeclaration } from '../../core/engine/types.js';
import { permits } from '../../core/resources/access.js';
import { agencyToday, DEFAULT_TIME_ZONE } from '../../core/domain/time/agencyTime.js';
import { compile, type Compiled, type Lookup } from './compile.js';
import type { EngineContext, EnginePrincipal, ResourceBehaviour } from './context.js';
import { deleteRecord } from './delete.js';
import { getRecord, listRecords } from './query.js';
import { Accepted, prepareAction, runAction, runCollectionAction } from './actions.js';
import { createDefaultsOf, saveRecord } from './write.js';
import { TotalCache } from './totals.js';
import { systemPrincipal, withEngine } from './handle.js';
import { recordAnswers } from '../../core/contracts/records.js';

import { linesProblems } from './lines.js';
import { unitScopeGaps } from '../../core/engine/unitScope.js';

export { TotalCache } from './totals.js';
export { compile, type Compiled } from './compile.js';

/** Compiles a set of declarations that refer to each other, with their server behaviours. */
export function compileAll(
  declarations: ResourceDeclaration[],
  behaviours: Record<string, ResourceBehaviour> = {},
  totals = new TotalCache(),
): Map<string, Compiled> {
  const registry = new Map<string, Compiled>();
  const lookup: Lookup = (name) => {
    const c = registry.get(name);
    if (!c) throw new Error(`No declaration named ${name}`);
    return c;
  };
  for (const d of declarations) registry.set(d.name, compile(d, lookup, totals, behaviours[d.name]));
  for (const c of registry.values()) if (c.decl.parent) lookup(c.decl.parent.resource);
  for (const c of registry.values())
    if (c.decl.parent?.lines) lookup(c.decl.parent.resource).lineResources.push(c.decl.name);
  const problems = [...linesProblems(registry), ...unitScopeGaps(declarations)];
  if (problems.length) throw new Error(problems.join('; '));
  return registry;
}

/** The signed-in caller as the engine sees them. */
export function principalOf(req: FastifyRequest): EnginePrincipal {
  return principalFromUser(req.auth!);
}

/** A signed-in user (a session's, or a file store caller's) as the engine's principal. */
export function principalFromUser(u: {
  id: number;
  name?: string;
  merchant_id: number;
  loginType: LoginType;
  client_id: number | null;
  candidate_id?: number | null;
  role: string;
  privileges?: string[] | null;
  business_unit_ids?: number[] | null;
}): EnginePrincipal {
  return {
    userId: u.id,
    name: u.name ?? '',
    loginType: u.loginType,
    role: u.role as EnginePrincipal['role'],
    ...(u.role === 'custom' ? { privileges: u.privileges ?? [], units: (u.business_unit_ids ?? []).map(Number) } : {}),
    merchantId: u.merchant_id,
    clientId: u.client_id,
    candidateId: u.candidate_id ?? null,
  };
}

// The agency's time zone changes rarely; reading it once a minute keeps it off every request.
const zones = new Map<number, { tz: string; until: number }>();
export async function agencyZone(db: Queryable, merchantId: number): Promise<string> {
  const hit = zones.get(merchantId);
  if (hit && hit.until > Date.now()) return hit.tz;
  const [m] = await db.query<{ time_zone: string }>('select time_zone from merchants where id = $1', [merchantId]);
  const tz = m?.time_zone || DEFAULT_TIME_ZONE;
  zones.set(merchantId, { tz, until: Date.now() + 60_000 });
  return tz;
}
/** Every agency's zone forgotten: for test files that share one process but each have their own database. */
export const forgetAgencyZones = () => zones.clear();
/** One agency's zone forgotten: it has just changed it (server/behaviours/agencySettings.ts). */
export const forgetAgencyZone = (merchantId: number) => zones.delete(merchantId);

/** The engine context of a request: its principal, the agency's today, and the database (or a transaction). */
export async function contextOf(db: Queryable, req: FastifyRequest): Promise<EngineContext> {
  const principal = principalOf(req);
  const timeZone = await agencyZone(db, principal.merchantId);
  const now = req.server.clock();
  return withEngine(
    {
      db,
      principal,
      now,
      timeZone,
      today: agencyToday(timeZone, now),
      ip: req.ip,
      cluster: (req.server as { cluster?: EngineContext['cluster'] }).cluster,
    },
    req.server.engine,
  );
}

/** A context for the product's own work outside a request (a periodic job): the system principal, the app's clock. */
export async function systemContext(app: FastifyInstance, db: Queryable, merchantId: number): Promise<EngineContext> {
  const timeZone = await agencyZone(db, merchantId);
  const now = app.clock();
  return withEngine(
    {
      db,
      principal: systemPrincipal(merchantId),
      now,
      timeZone,
      today: agencyToday(timeZone, now),
      cluster: app.cluster,
    },
    app.engine,
  );
}

/**
 * Runs fn in one transaction with the request's engine context. Once a write is committed, the agency's cached
 * totals of the tables it wrote (`tables`, and every table written through ctx.engine) are stale: a count computed
 * before it was stored under the old version and is never read again. A write that ended sessions (a client or
 * staff member deactivated) answers once every process has heard.
 */
export async function inTransaction<T>(
  req: FastifyRequest,
  fn: (ctx: EngineContext) => Promise<T>,
  registry: Map<string, Compiled> = req.server.engine,
  tables: string[] = [],
): Promise<T> {
  const ctx = await contextOf(req.server.db, req);
  const touched = new Set<string>(tables);
  const result = await req.server.db.transaction((tx) => fn(withEngine({ ...ctx, db: tx, touched }, registry)));
  await ctx.cluster?.settle();
  for (const table of touched) req.server.totals.changed(table, req.auth!.merchant_id);
  return result;
}

/** The routes that authorise as the declarations say: the engine's own, and those registered by route(). */
const authorisedRoutes = new WeakSet<object>();
/** Marks a route's handler as one of them (server/app.ts records it for the authorization matrix). */
export const markAuthorised = <H extends object>(handler: H): H => (authorisedRoutes.add(handler), handler);
export const isAuthorisedRoute = (handler: unknown) => typeof handler === 'function' && authorisedRoutes.has(handler);

function authorise(req: FastifyRequest, decl: ResourceDeclaration, action: Action | string) {
  const user = req.auth!;
  if (!permits(principalFromUser(user), decl, action)) throw forbidden();
}

/**
 * The engine's answers are documented by schemas generated from the declarations (core/contracts/records.ts)
 * but sent as the engine built them: what a record carries depends on the caller's role, and the select list
 * already decided it. A schema-driven serializer would drop or require fields by one role's view.
 */
export const asBuilt = () => (data: unknown) => JSON.stringify(data);

export const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } },
} as const;
const idList = {
  type: 'array',
  minItems: 1,
  maxItems: 1000,
  items: { type: 'integer', minimum: 1, maximum: 2147483647 },
} as const;

/** The REST routes of one declared resource under /api/{name}: CRUD and its actions. */
export async function resourceRoutes(app: FastifyInstance, c: Compiled, registry: Map<string, Compiled>) {
  const decl = c.decl;
  const base = `/api/${decl.name}`;
  const tags = [decl.label.many];
  const record = { type: 'object', additionalProperties: true } as const;
  const transact = <T>(req: FastifyRequest, fn: (ctx: EngineContext) => Promise<T>) =>
    inTransaction(req, fn, registry, [decl.table]);
  // Every engine route lets in any signed-in agency or client user; a staff token only where the declaration opens
  // rows to staff (staffScope and access.staff), and is refused before it (server/app.ts) everywhere else. Then the
  // declaration decides (403), the row scope hides (404).
  const config = { access: 'any' as const, staff: !!(decl.staffScope && decl.access.staff?.length) };
  // The declaration's permission, checked before the route's schemas look at what was sent (server/app.ts).
  const may = (action: Action | string) => ({
    ...config,
    authorize: (req: FastifyRequest) => authorise(req, decl, action),
  });
  const answers = recordAnswers(decl);

  app.get(base, {
    config: {
      ...config,
      authorize: (req: FastifyRequest) => {
        // An export is a list asked with export=1: it needs the declaration's 'export' permission as well.
        authorise(req, decl, 'list');
        const exporting = (req.query as Record<string, unknown>).export;
        if (exporting === '1' || exporting === 'true') authorise(req, decl, 'export');
      },
    },
    schema: {
      tags,
      summary: `List ${decl.label.many.toLowerCase()}`,
      description: `Filters: ${[...c.filterable.keys(), ...Object.keys(decl.filterAliases ?? {})].join(', ') || 'none'}; q searches ${decl.search?.join(', ') ?? 'nothing'}; tab: ${(decl.tabs ?? []).map((t) => t.id).join(', ') || 'none'}; sort: ${[...c.sortable].join(', ')}; fields: the fields each row carries (comma-separated; default all the caller may read).`,
      querystring: { type: 'object', additionalProperties: { type: 'string' } },
      response: { 200: answers.list },
    },
    serializerCompiler: asBuilt,
    handler: async (req) => {
      const { export: _exporting, ...query } = req.query as Record<string, string>;
      return listRecords(await contextOf(app.db, req), c, query);
    },
  });
  // The create form's starting values where the agency has its own (issue 35: a new client's billing and timesheets).
  if (decl.agencyDefaults?.length)
    app.get(`${base}/defaults`, {
      config: may('create'),
      schema: {
        tags,
        summary: `The agency's starting values of a new ${decl.label.one.toLowerCase()}`,
        response: { 200: { type: 'object', properties: { data: record }, required: ['data'] } },
      },
      handler: async (req) => {
        const all = await createDefaultsOf(await contextOf(app.db, req), c);
        return { data: Object.fromEntries(decl.agencyDefaults!.map((f) => [f, all[f] ?? null])) };
      },
    });
  app.get<{ Params: { id: number } }>(`${base}/:id`, {
    config: may('show'),
    schema: { tags, summary: `One ${decl.label.one.toLowerCase()}`, params: idParams, response: { 200: answers.one } },
    serializerCompiler: asBuilt,
    handler: async (req) => {
      return { data: await getRecord(await contextOf(app.db, req), c, req.params.id) };
    },
  });
  app.post(base, {
    config: may('create'),
    schema: { tags, summary: `Create a ${decl.label.one.toLowerCase()}`, body: record, response: { 201: answers.one } },
    serializerCompiler: asBuilt,
    handler: async (req, reply) => {
      const data = await transact(req, (ctx) => saveRecord(ctx, c, req.body as Record<string, unknown>));
      return reply.status(201).send({ data });
    },
  });
  app.put<{ Params: { id: number } }>(`${base}/:id`, {
    config: may('edit'),
    schema: {
      tags,
      summary: `Update a ${decl.label.one.toLowerCase()}`,
      description: "Send back the record's `version`: a stale one answers 409 and nothing is stored.",
      params: idParams,
      body: record,
      response: { 200: answers.one },
    },
    serializerCompiler: asBuilt,
    handler: async (req) => {
      return {
        data: await transact(req, (ctx) => saveRecord(ctx, c, req.body as Record<string, unknown>, req.params.id)),
      };
    },
  });
  app.delete<{ Params: { id: number } }>(`${base}/:id`, {
    config: may('delete'),
    schema: {
      tags,
      summary: `Delete a ${decl.label.one.toLowerCase()}`,
      description: c.deletion.reason ? 'Send `{ reason }`: it is required, and kept in the audit trail.' : undefined,
      params: idParams,
      response: { 200: answers.one },
    },
    serializerCompiler: asBuilt,
    handler: async (req) => {
      // A delete declared with a reason takes it as { reason } (or ?reason=).
      const reason =
        (req.body as { reason?: unknown } | undefined)?.reason ?? (req.query as { reason?: unknown }).reason;
      return { data: await transact(req, (ctx) => deleteRecord(ctx, c, req.params.id, registry, reason)) };
    },
  });
  // An action no role may run is the server's own (a transition a hook makes through ctx.engine.act): no route. Nor
  // one that only a capability link's holder may run: a link is no session, its holder acts at /api/capability.
  for (const action of (decl.actions ?? []).filter((a) => a.roles.some((r) => r !== 'link')))
    actionRoutes(app, c, action, transact, config, registry, answers);
}

function actionRoutes(
  app: FastifyInstance,
  c: Compiled,
  action: ActionDeclaration,
  transact: <T>(req: FastifyRequest, fn: (ctx: EngineContext) => Promise<T>) => Promise<T>,
  config: { access: 'any'; staff: boolean },
  registry: Map<string, Compiled>,
  answers: ReturnType<typeof recordAnswers>,
) {
  const decl = c.decl;
  const tags = [decl.label.many];
  const inputProps = Object.fromEntries((action.input ?? []).map((f) => [f.source, {}]));
  if (action.collection) {
    app.post(`/api/${decl.name}/actions/${action.name}`, {
      // A collection action granted to staff lets a staff token in (its effect works within their scope).
      config: {
        ...config,
        staff: config.staff || action.roles.includes('staff'),
        authorize: (req: FastifyRequest) => authorise(req, decl, action.name),
      },
      schema: {
        tags,
        summary: `${action.label} (${decl.label.many.toLowerCase()})`,
        body: { type: ['object', 'null'], properties: inputProps, additionalProperties: true },
        response: {
          200: { type: 'object', properties: { data: {} }, additionalProperties: true },
          202: { type: 'object', properties: { data: {} }, additionalProperties: true },
        },
      },
      serializerCompiler: asBuilt,
      handler: async (req, reply) => {
        const data = await transact(req, (ctx) =>
          runCollectionAction(ctx, c, action, (req.body ?? {}) as Record<string, unknown>),
        );
        if (data instanceof Accepted) return reply.code(202).send({ data: data.data });
        return { data };
      },
    });
    return;
  }
  // The action's slow preparation (a password's hash), before its transaction opens.
  // The records are looked up first, so one outside the caller's scope answers 404 before its input is checked.
  const prepareFor = async (req: FastifyRequest, body: Record<string, unknown>, ids: number[]) => {
    if (!c.behaviour.prepare?.[action.name]) return undefined;
    const ctx = await contextOf(app.db, req);
    for (const id of ids) await getRecord(ctx, c, id);
    return prepareAction(ctx, c, action, body);
  };
  const may = { ...config, authorize: (req: FastifyRequest) => authorise(req, decl, action.name) };
  app.post<{ Params: { id: number } }>(`/api/${decl.name}/:id/actions/${action.name}`, {
    config: may,
    schema: {
      tags,
      summary: `${action.label} (one ${decl.label.one.toLowerCase()})`,
      params: idParams,
      body: { type: ['object', 'null'], properties: inputProps, additionalProperties: true },
      response: { 200: answers.one },
    },
    serializerCompiler: asBuilt,
    handler: async (req) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const prepared = await prepareFor(req, body, [req.params.id]);
      const [data] = await transact(req, (ctx) =>
        runAction(ctx, c, action, [req.params.id], body, registry, { prepared }),
      );
      return { data };
    },
  });
  if (!action.bulk) return;
  app.post<{ Body: { ids: number[] } }>(`/api/${decl.name}/actions/${action.name}`, {
    config: may,
    schema: {
      tags,
      summary: `${action.label} (selected ${decl.label.many.toLowerCase()}, all or nothing)`,
      body: {
        type: 'object',
        required: ['ids'],
        properties: { ids: idList, ...inputProps },
        additionalProperties: true,
      },
      response: { 200: answers.many },
    },
    serializerCompiler: asBuilt,
    handler: async (req) => {
      if (!Array.isArray(req.body?.ids)) throw new HttpError(422, 'Choose at least one record.', { ids: 'Required' });
      const body = req.body as unknown as Record<string, unknown>;
      const prepared = await prepareFor(req, body, req.body.ids);
      const data = await transact(req, (ctx) => runAction(ctx, c, action, req.body.ids, body, registry, { prepared }));
      return { data };
    },
  });
}

/**
 * The file store's rule for attached files: a principal may read a file when they may see the record that owns
 * it (the declaration grants 'show' and the row is inside their scope).
 */
export function recordVisibility(registry: Map<string, Compiled>) {
  return async (
    db: Queryable,
    who: {
      id: number;
      name?: string;
      merchant_id: number;
      loginType: LoginType;
      client_id: number | null;
      role: string;
      privileges?: string[] | null;
      business_unit_ids?: number[] | null;
    },
    resource: string,
    id: number,
  ) => {
    const c = registry.get(resource);
    if (!c || !permits(principalFromUser(who), c.decl, 'show')) return false;
    const principal = principalFromUser(who);
    return getRecord({ db, principal, today: agencyToday(await agencyZone(db, who.merchant_id)) }, c, id).then(
      () => true,
      () => false,
    );
  };
}

/** Serves every compiled resource; the app compiles them once (app.engine) so other routes can use them too. */
export async function engineRoutes(app: FastifyInstance, options: { registry: Map<string, Compiled> }) {
  // Every route here authorises from its declaration (authorise above).
  app.addHook('onRoute', (r) => void markAuthorised(r.handler));
  for (const c of options.registry.values())
    if (c.decl.served !== false) await resourceRoutes(app, c, options.registry);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every declared resource, compiled: what engine routes and other routes (compliance, files) read. */
    engine: Map<string, Compiled>;
    /** The server's clock: what ctx.now reads (a test may fix it). */
    clock: () => Date;
  }
}
