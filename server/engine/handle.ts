// The engine's writes from inside another write: hooks, action effects, services and jobs call ctx.engine.
import type { Row } from '../db/index.js';
import { HttpError } from '../http.js';
import type { Compiled } from './compile.js';
import type { EngineContext, EngineHandle, EnginePrincipal, RecordOf } from './context.js';
import { deleteMany, deleteRecord } from './delete.js';
import { getRecord } from './query.js';
import { lockRecords, runAction } from './actions.js';
import { updateMany } from './updateMany.js';
import { store } from './write.js';
import { createMany } from './createMany.js';
import { eraseFromTrail } from './erasure.js';

/** The product itself as the author of a write (a periodic job): the audit trail names it "system", no user. */
export const systemPrincipal = (merchantId: number): EnginePrincipal => ({
  userId: 0,
  name: 'system',
  loginType: 'agency',
  role: 'admin',
  merchantId,
  clientId: null,
});

/** A context without its engine handle: what a request, a job or a test starts from. */
export type PlainContext = Omit<EngineContext, 'engine'>;

/**
 * A write's values apart from the agency's own fields (`custom_fields`), which the engine checks against their
 * definitions and merges into the stored ones, as a request's body.
 */
function customFieldsApart(c: Compiled, values: Record<string, unknown>): [Record<string, unknown>, unknown] {
  if (!c.decl.customFields || !Object.hasOwn(values, 'custom_fields')) return [values, undefined];
  const { custom_fields: custom, ...rest } = values;
  return [rest, custom];
}

/**
 * Binds the engine's writes to a context: every call runs in its transaction (`ctx.db`) as its principal. A
 * context derived from another (a transaction opened, another principal) is bound again, so the handle never
 * writes outside the transaction it was called in.
 */
export function withEngine(base: PlainContext | EngineContext, registry: Map<string, Compiled>): EngineContext {
  const ctx = { ...base } as EngineContext;
  // Shared with every context derived from this one (asSystem): a document being written is known to all of them.
  ctx.documents ??= new Set();
  const compiled = (resource: string) => {
    const c = registry.get(resource);
    if (!c) throw new Error(`No declaration named ${resource}`);
    // Totals of a table written besides the request's own go stale at commit (routes.ts drops them).
    ctx.touched?.add(c.decl.table);
    return c;
  };
  const reason = (options?: { reason?: string }) => (options?.reason ? { reason: options.reason } : undefined);
  // The engine answers a row of the resource it was asked to write: the one place it takes that resource's type.
  const typed = <K extends string>(_resource: K, row: Promise<Row>) => row as Promise<RecordOf<K>>;
  const handle: EngineHandle = {
    create(resource, values, options) {
      const c = compiled(resource);
      const [changes, customInput] = customFieldsApart(c, values);
      return typed(resource, store(ctx, c, undefined, changes, { input: reason(options), customInput }));
    },
    async createMany(resource, rows, options) {
      const input = { ...options?.input, ...reason(options) };
      const created = await createMany(ctx, compiled(resource), rows, {
        input: Object.keys(input).length ? input : undefined,
      });
      return created as RecordOf<typeof resource>[];
    },
    async update(resource, id, changes, options) {
      const c = compiled(resource);
      // Inside the principal's row scope, like a request's write: out of scope is 404.
      const stored = await getRecord(ctx, c, id, { lock: true, all: true });
      const [own, customInput] = customFieldsApart(c, changes);
      return typed(
        resource,
        store(ctx, c, stored, own, {
          customInput,
          input: reason(options),
          action: options?.action,
          overrideLock: options?.overrideLock,
        }),
      );
    },
    async updateMany(resource, changes, options) {
      const c = compiled(resource);
      const byId = new Map<number, Record<string, unknown>>();
      // A record named twice takes both changes, the later over the earlier, as two updates in turn would.
      for (const { id, ...rest } of changes) byId.set(Number(id), { ...byId.get(Number(id)), ...rest });
      const stored = await lockRecords(ctx, c, [...byId.keys()], registry);
      const written = await updateMany(
        ctx,
        c,
        stored.map((s) => ({ stored: s, changes: byId.get(Number(s.id))! })),
        { input: reason(options), action: options?.action, overrideLock: options?.overrideLock },
      );
      const byWritten = new Map(written.map((r) => [Number(r.id), r]));
      return [...byId.keys()].map((id) => byWritten.get(id)!) as RecordOf<typeof resource>[];
    },
    async act<K extends string>(
      resource: K,
      id: number | number[],
      name: string,
      input = {},
      options?: { reason?: string },
    ) {
      const c = compiled(resource);
      const action = c.actions.get(name);
      if (!action) throw new HttpError(500, `${resource} has no action ${name}`);
      const rows = await runAction(ctx, c, action, Array.isArray(id) ? id : [id], input, registry, {
        reason: options?.reason,
        stored: true,
      });
      return (Array.isArray(id) ? rows : rows[0]) as RecordOf<K> & RecordOf<K>[];
    },
    remove: (resource, id, options) =>
      typed(resource, deleteRecord(ctx, compiled(resource), id, registry, options?.reason)),
    async eraseFromTrail(resource, id, fields, options) {
      const c = compiled(resource);
      const unknown = fields.filter((f) => !c.byField.has(f));
      if (unknown.length) throw new Error(`${resource} has no field ${unknown.join(', ')}`);
      // Inside the principal's row scope, like every write: out of scope is 404.
      const row = await getRecord(ctx, c, id, { all: true });
      return eraseFromTrail(ctx, c, [row], options?.reason, fields);
    },
    async deleteMany(resource, ids, options) {
      const rows = await deleteMany(ctx, compiled(resource), ids, registry, options?.reason, {
        overrideLock: options?.overrideLock,
      });
      return rows as RecordOf<typeof resource>[];
    },
    asSystem: () => withEngine({ ...ctx, principal: systemPrincipal(ctx.principal.merchantId) }, registry).engine,
    compiled,
  };
  ctx.engine = handle;
  return ctx;
}
