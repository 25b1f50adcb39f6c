// Capability links: a single-use, expiring token bound to one record and one of its declared actions, so someone
// without an account (a client's approver) can read that record and run that action, nothing else. The engine
// authorises the holder like any other principal: role 'link' in the declaration's access and action roles, the
// link's record as their whole row scope, and only the fields whose readableBy names 'link'.
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Queryable, Row } from '../db/index.js';
import { HttpError, PUBLIC_BODY_LIMIT } from '../http.js';
import { permits } from '../../core/resources/access.js';
import type { ActionDeclaration } from '../../core/engine/types.js';
import { agencyToday } from '../../core/domain/time/agencyTime.js';
import type { Compiled } from './compile.js';
import { withEngine } from './handle.js';
import type { EngineContext, EnginePrincipal } from './context.js';
import { getRecord } from './query.js';
import { lockParents, prepareAction, runAction } from './actions.js';
import { agencyZone, asBuilt } from './routes.js';
import { LinkActed, LinkView } from '../../core/contracts/documents.js';

export const LINK_INVALID = 'This link is not valid. Check that it was copied whole, or ask for a new link.';
export const LINK_USED = 'This link has already been used. Ask for a new link if something still needs doing.';
export const LINK_EXPIRED = 'This link has expired. Ask for a new link.';
export const LINK_CHANGED = 'This record has changed since the link was sent; ask for a new link.';
export const LINK_REVOKED = 'This link was replaced by a newer one or withdrawn. Ask for a new link.';

/** How a link reached its holder: the audit trail says it in these words. */
export const DELIVERED_VIA = { email: 'e-mail', sms: 'text message' } as const;
export type DeliveredVia = keyof typeof DELIVERED_VIA;

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

export interface LinkRow {
  id: number;
  merchant_id: number;
  resource: string;
  record_id: number;
  action: string;
  purpose: string;
  recipient: string;
  delivered_via: DeliveredVia;
  content_hash: string | null;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
  expired: boolean;
}

/** The holder of a link as the engine's principal: no user, named by whom the link was sent to and how. */
export function linkPrincipal(
  link: Pick<LinkRow, 'id' | 'merchant_id' | 'resource' | 'record_id' | 'action' | 'recipient' | 'delivered_via'>,
): EnginePrincipal {
  return {
    userId: 0,
    name: `via link sent to ${link.recipient} by ${DELIVERED_VIA[link.delivered_via] ?? link.delivered_via}`,
    loginType: 'link',
    role: 'link',
    merchantId: link.merchant_id,
    clientId: null,
    candidateId: null,
    link: {
      id: link.id,
      resource: link.resource,
      recordId: link.record_id,
      action: link.action,
      recipient: link.recipient,
    },
  };
}

/**
 * The fingerprint of the record as the link's holder reads it (the fields readable by 'link', version and times
 * left out): a link bound to the content refuses once what its holder saw has changed.
 */
function contentHash(record: Row, action?: ActionDeclaration): string {
  // What the action's declaration binds its links to (linkBoundTo), else all the holder reads.
  const bound = action?.linkBoundTo ? { bound: action.linkBoundTo(record) } : record;
  const { version: _v, updated_at: _u, ...fields } = bound as Row;
  const stable = Object.keys(fields)
    .sort()
    .map((k) => [k, fields[k] instanceof Date ? (fields[k] as Date).toISOString() : fields[k]]);
  return sha256(JSON.stringify(stable));
}

async function linkContext(app: FastifyInstance, db: Queryable, principal: EnginePrincipal): Promise<EngineContext> {
  const timeZone = await agencyZone(db, principal.merchantId);
  const now = app.clock();
  return withEngine({ db, principal, now, timeZone, today: agencyToday(timeZone, now) }, app.engine);
}

export interface MintOptions {
  action: string;
  /** What the link is for, in words ('Sign the timesheet for week 48'). */
  purpose: string;
  /** Whom it is sent to (an e-mail address or a phone number): the audit names the holder by it. */
  recipient: string;
  deliveredVia: DeliveredVia;
  /** How long it works; 7 days unless said. */
  lifetimeHours?: number;
  /** Refuse (409) once the record, as the holder reads it, has changed since minting. */
  bindContent?: boolean;
}

/**
 * Mints a link to run `action` on one record the caller may see, in the caller's transaction. Answers the raw token
 * once; only its hash is stored. The declaration must grant role 'link' the action and 'show'.
 */
export async function mintLink(
  ctx: EngineContext,
  c: Compiled,
  recordId: number,
  o: MintOptions,
): Promise<{ id: number; token: string; expiresAt: string }> {
  const link = await createLink(ctx, c, recordId, o);
  return { ...link, token: (await issueLinkToken(ctx.db, link.id, ctx.now))! };
}

/**
 * A link without its token yet, for an e-mail whose sender makes the token as it sends it (issueLinkToken, from
 * the outbox's secret link: server/notifications/outbox.ts), so no stored copy of the e-mail ever holds it. Until
 * then the link opens nothing.
 */
export async function createLink(
  ctx: EngineContext,
  c: Compiled,
  recordId: number,
  o: MintOptions,
): Promise<{ id: number; expiresAt: string }> {
  const action = c.actions.get(o.action);
  if (!action || !action.roles.includes('link') || !c.decl.access.link?.includes('show')) {
    throw new Error(
      `${c.decl.name}.${o.action} is not declared for capability links (roles 'link' and access.link ['show'])`,
    );
  }
  // The minter must see the record themselves (404 otherwise): a link never reaches further than its sender.
  await getRecord(ctx, c, recordId);
  let hash: string | null = null;
  if (o.bindContent) {
    const holder = linkPrincipal({
      id: 0,
      merchant_id: ctx.principal.merchantId,
      resource: c.decl.name,
      record_id: recordId,
      action: o.action,
      recipient: o.recipient,
      delivered_via: o.deliveredVia,
    });
    hash = contentHash(await getRecord({ ...ctx, principal: holder }, c, recordId), c.actions.get(o.action));
  }
  const [row] = await ctx.db.query<{ id: number; expires_at: string }>(
    `insert into capability_links (merchant_id, resource, record_id, action, purpose, recipient, delivered_via, content_hash, expires_at, created_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9::timestamptz + make_interval(hours => $10), $11) returning id, expires_at`,
    [
      ctx.principal.merchantId,
      c.decl.name,
      recordId,
      o.action,
      o.purpose,
      o.recipient,
      o.deliveredVia,
      hash,
      ctx.now.toISOString(),
      o.lifetimeHours ?? 7 * 24,
      ctx.principal.userId || null,
    ],
  );
  return { id: row.id, expiresAt: row.expires_at };
}

/**
 * A fresh token for a link that still works (unused, not withdrawn, unexpired at `now`, the server's clock), or null.
 * Only its hash is kept, and an earlier token of the link stops working: an e-mail sent again carries a new one.
 */
export async function issueLinkToken(db: Queryable, linkId: number, now = new Date()): Promise<string | null> {
  const token = randomBytes(32).toString('base64url');
  const open = await db.query(
    `update capability_links set token_hash = $2
      where id = $1 and used_at is null and revoked_at is null and expires_at > $3 returning id`,
    [linkId, sha256(token), now.toISOString()],
  );
  return open.length ? token : null;
}

/**
 * Withdraws the record's open links for `action`, in the caller's transaction: a new link replaces them, or the
 * record may no longer be acted on that way (a deactivated user's invitation). Their holders are told so (410).
 */
export async function revokeLinks(ctx: EngineContext, c: Compiled, recordId: number, action: string) {
  await ctx.db.query(
    `update capability_links set revoked_at = $5
      where merchant_id = $1 and resource = $2 and record_id = $3 and action = $4 and used_at is null and revoked_at is null`,
    [ctx.principal.merchantId, c.decl.name, recordId, action, ctx.now.toISOString()],
  );
}

/** What a route expects a link to be for: a link for another resource is no link there (404), another action 403. */
export interface LinkExpected {
  resource?: string;
  action?: string;
}

/**
 * The link a token names, or the refusal in words: unknown, altered or for another kind of record 404; used,
 * withdrawn or expired 410. Expired on the server's clock (`now`, a test's fixed one too), as links are minted on it.
 */
export async function openLink(
  db: Queryable,
  token: string,
  expected: LinkExpected = {},
  { lock = false, now = new Date() }: { lock?: boolean; now?: Date } = {},
): Promise<LinkRow> {
  const [link] = await db.query<LinkRow>(
    `select id, merchant_id, resource, record_id, action, purpose, recipient, delivered_via, content_hash, expires_at, used_at, revoked_at, expires_at <= $2 as expired
       from capability_links where token_hash = $1${lock ? ' for update' : ''}`,
    [sha256(token), now.toISOString()],
  );
  if (!link || (expected.resource && expected.resource !== link.resource)) throw new HttpError(404, LINK_INVALID);
  if (link.used_at) throw new HttpError(410, LINK_USED);
  if (link.revoked_at) throw new HttpError(410, LINK_REVOKED);
  if (link.expired) throw new HttpError(410, LINK_EXPIRED);
  return link;
}

const tokenParams = {
  type: 'object',
  required: ['token'],
  properties: { token: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;

/** Where a link's action runs: the server's clock and the request's address (a signature keeps it). */
export type LinkUse = Pick<EngineContext, 'now' | 'ip' | 'cluster' | 'touched'>;

function boundAction(registry: Map<string, Compiled>, link: LinkRow, expected: LinkExpected) {
  const c = registry.get(link.resource);
  if (!c) throw new HttpError(404, LINK_INVALID);
  const action = c.actions.get(link.action);
  if (
    (expected.action && expected.action !== link.action) ||
    !action ||
    !permits(linkPrincipal(link), c.decl, action.name)
  )
    throw new HttpError(403, `This link lets you do one thing only: ${action?.label ?? link.action}.`);
  return { c, action };
}

/**
 * Runs the action a link is bound to, once, as its holder, in `db` (the caller's transaction), and uses the link up:
 * through runAction (guard, patch, effect, hooks, version, audit naming the holder), with the link's row locked, so
 * two presses run it once (the second finds it used). Refused in words as openLink refuses, 403 for another action
 * than the link's (the link stays usable), 409 when a content-bound record changed. useLink's transaction, and the
 * demo seed's for a timesheet signed by its link.
 */
export async function actByLink(
  db: Queryable,
  registry: Map<string, Compiled>,
  token: string,
  body: Record<string, unknown>,
  expected: LinkExpected,
  use: LinkUse,
  prepared?: Record<string, unknown>,
): Promise<{ data: Row; link: LinkRow }> {
  const seen = await openLink(db, token, expected, { now: use.now });
  const { c, action } = boundAction(registry, seen, expected);
  const principal = linkPrincipal(seen);
  const timeZone = await agencyZone(db, principal.merchantId);
  const ctx = withEngine({ db, principal, timeZone, today: agencyToday(timeZone, use.now), ...use }, registry);
  // The record (its parent first) before the link's row: the order of every other write that touches both (a
  // reminder or a resend locks the timesheet, then replaces its links), so the two never wait on each other.
  await lockParents(ctx, c, [seen.record_id], registry);
  await db.query(`select id from ${c.table} where merchant_id = $1 and id = $2 for update`, [
    seen.merchant_id,
    seen.record_id,
  ]);
  // Locked now, and read again: a press racing this one finds the link used (or revoked) once that one commits.
  const link = await openLink(db, token, expected, { lock: true, now: use.now });
  if (link.content_hash !== null && link.content_hash !== contentHash(await getRecord(ctx, c, link.record_id), action))
    throw new HttpError(409, LINK_CHANGED);
  const [data] = await runAction(ctx, c, action, [link.record_id], body, registry, { prepared });
  if (action.linkReusableWhile?.(data)) {
    // Still work left for the holder (lines still to sign): the link stays, bound to what they now see.
    if (link.content_hash !== null)
      await db.query('update capability_links set content_hash = $2 where id = $1', [
        link.id,
        contentHash(await getRecord(ctx, c, link.record_id), action),
      ]);
  } else await db.query('update capability_links set used_at = $2 where id = $1', [link.id, use.now.toISOString()]);
  return { data, link };
}

/**
 * A link used from a request: the action's slow preparation (a password's hash) first, outside any transaction, then
 * actByLink in a transaction of its own. For the public action route and the routes that own a kind of link (the
 * invitations).
 */
export async function useLink(
  app: FastifyInstance,
  token: string,
  body: Record<string, unknown>,
  expected: LinkExpected = {},
  ip?: string,
): Promise<{ data: Row; link: LinkRow }> {
  const now = app.clock();
  const before = await openLink(app.db, token, expected, { now });
  const first = boundAction(app.engine, before, expected);
  const prepared = first.c.behaviour.prepare?.[first.action.name]
    ? await prepareAction(await linkContext(app, app.db, linkPrincipal(before)), first.c, first.action, body)
    : undefined;
  const touched = new Set<string>();
  const done = await app.db.transaction((tx) =>
    actByLink(tx, app.engine, token, body, expected, { now, ip, cluster: app.cluster, touched }, prepared),
  );
  await app.cluster.settle();
  // The record's table, and any other the action wrote (a timesheet's lines).
  for (const table of [app.engine.get(done.link.resource)!.decl.table, ...touched])
    app.totals.changed(table, done.link.merchant_id);
  return done;
}

/**
 * The body a link's action may send: a public route's few KB, plus the longest input any action a link may run
 * declares (a drawn signature's characters), so a holder's form always fits and nothing much larger is parsed.
 */
export function linkBodyLimit(registry: Map<string, Compiled>): number {
  let longest = 0;
  for (const c of registry.values())
    for (const a of c.decl.actions ?? [])
      if (a.roles.includes('link'))
        longest = Math.max(
          longest,
          (a.input ?? []).reduce((n, f) => n + (f.maxLength ?? 0), 0),
        );
  return PUBLIC_BODY_LIMIT + longest;
}

/**
 * The two routes a link reaches, both public (the token is the credential; a link is never a bearer session):
 * what its holder may see of the record, and running the bound action, which uses the link up in the same
 * transaction.
 */
export async function capabilityRoutes(app: FastifyInstance, options: { registry: Map<string, Compiled> }) {
  const compiled = (link: LinkRow) => {
    const c = options.registry.get(link.resource);
    if (!c) throw new HttpError(404, LINK_INVALID);
    return c;
  };
  app.get<{ Params: { token: string } }>('/api/capability/:token', {
    config: { access: 'public' },
    schema: {
      tags: ['capability links'],
      summary: 'What a capability link shows: its record and the one action it may run',
      params: tokenParams,
      response: { 200: LinkView },
    },
    // The record as the engine read it for a link holder: the schema documents it.
    serializerCompiler: asBuilt,
    handler: async (req) => {
      const link = await openLink(app.db, req.params.token, {}, { now: app.clock() });
      const c = compiled(link);
      const principal = linkPrincipal(link);
      if (!permits(principal, c.decl, 'show')) throw new HttpError(403, 'This link does not let you see the record.');
      const data = await getRecord(await linkContext(app, app.db, principal), c, link.record_id);
      const action = c.actions.get(link.action);
      return {
        data,
        resource: link.resource,
        action: { name: link.action, label: action?.label ?? link.action },
        purpose: link.purpose,
        expires_at: link.expires_at,
        changed: link.content_hash !== null && link.content_hash !== contentHash(data, action),
      };
    },
  });
  app.post<{ Params: { token: string; action: string } }>('/api/capability/:token/actions/:action', {
    config: { access: 'public' },
    bodyLimit: linkBodyLimit(options.registry),
    schema: {
      tags: ['capability links'],
      summary: 'Run the action a capability link is bound to, once',
      params: {
        ...tokenParams,
        required: ['token', 'action'],
        properties: { ...tokenParams.properties, action: { type: 'string', maxLength: 60 } },
      },
      body: { type: ['object', 'null'], additionalProperties: true },
      response: { 200: LinkActed },
    },
    serializerCompiler: asBuilt,
    handler: async (req) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      return { data: (await useLink(app, req.params.token, body, { action: req.params.action }, req.ip)).data };
    },
  });
}
