import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import type { Client as PgClient } from 'pg';
import { migrate } from './migrate.js';

export type Row = Record<string, any>;

/** How a statement is run. */
export interface QueryOptions {
  /**
   * Prepared on PostgreSQL: parsed and planned once per connection, then only executed. For the few statements run
   * again and again with other values (a list's first pages and its count), whose text comes from a bounded set: each
   * text stays prepared on every pooled connection while it lives. PGlite plans every statement.
   */
  prepare?: boolean;
}

/** The part of a database connection that runs statements: the pool itself, or one transaction. */
export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: unknown[], options?: QueryOptions): Promise<T[]>;
  /**
   * Thousands of rows come back sooner as one JSON text (PGlite: it hands every value of a result to JavaScript
   * through its own parser, a copy and a decode each); PostgreSQL's driver answers them sooner as they are.
   * server/engine/compile.ts, queryMany.
   */
  manyRowsAsJson?: boolean;
}

export interface Db extends Queryable {
  kind: 'pglite' | 'postgres';
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Calls `handler` with the payload of every notification on `channel` sent by any process using this
   * database, this one included. Answers a function that stops listening. Channels are scoped to the schema
   * the connection works in, so test files sharing one PostgreSQL database in different schemas never hear
   * each other.
   */
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * Sends `payload` (at most 8000 bytes) to every listener of `channel`. Through `via`, a transaction, it is
   * delivered when that transaction commits and never if it rolls back; otherwise at once.
   */
  notify(channel: string, payload: string, via?: Queryable): Promise<void>;
  /**
   * Hears the listening connection drop (`false`: notifications sent from now on may be missed) and come
   * back (`true`: listening again; what was sent meanwhile is lost). Answers a function that stops hearing.
   * PGlite lives in this process and never drops.
   */
  onListenerState(handler: (listening: boolean) => void): () => void;
  close(): Promise<void>;
}

// Both drivers return the same JavaScript values: int8 and counts as numbers (ids and money in minor
// units stay far below 2^53), dates as 'yyyy-MM-dd' strings (no time-zone shift), timestamps as ISO strings.
const INT8 = 20;
const DATE = 1082;
const TIMESTAMP = 1114;
const TIMESTAMPTZ = 1184;
// An instant in UTC (the servers' zone: PostgreSQL's default and PGlite's), or a timestamp without a zone, which is
// read as UTC: '2026-11-22 13:08:54.691234+00'.
const UTC = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?(?:\+00)?$/;
function toIso(v: string): string {
  // Rewritten as text, as Date's toISOString would write it (milliseconds, truncated): a page of records holds
  // hundreds of timestamps, and making a Date of each was a tenth of a list request's time. The form the servers
  // write is cut up as it is (a set-based write reads thousands: the regular expression was most of the parse).
  if (v.length >= 22 && v.length <= 29 && v.charCodeAt(10) === 32 && v.endsWith('+00')) {
    const fraction = v.length > 22 ? v.slice(20, Math.min(23, v.length - 3)) : '';
    if (v.length === 22 || v.charCodeAt(19) === 46)
      return `${v.slice(0, 10)}T${v.slice(11, 19)}.${(fraction + '000').slice(0, 3)}Z`;
  }
  const utc = UTC.exec(v);
  if (utc) return `${utc[1]}T${utc[2]}.${((utc[3] ?? '') + '000').slice(0, 3)}Z`;
  // Another zone: Postgres writes '2026-11-22 14:08:54.691+01'; JavaScript wants 'T' and a '+01:00' offset.
  let s = v.replace(' ', 'T');
  const offset = /([+-]\d\d)(:?(\d\d))?$/.exec(s);
  if (offset) s = s.slice(0, offset.index) + `${offset[1]}:${offset[3] ?? '00'}`;
  else if (!s.endsWith('Z')) s += 'Z';
  return new Date(s).toISOString();
}
const parsers: Record<number, (v: string) => unknown> = {
  [INT8]: (v) => Number(v),
  [DATE]: (v) => v,
  [TIMESTAMP]: toIso,
  [TIMESTAMPTZ]: toIso,
};

/**
 * A list of whole numbers as PostgreSQL's array text, written at once: the drivers quote and escape each element
 * on their own, which for the 10,000 ids of a set-based write was more of its time than the statement's. Any other
 * value is left to the driver.
 */
function wholeNumberList(value: unknown): unknown {
  if (!Array.isArray(value) || value.length === 0) return value;
  for (const n of value) if (!Number.isSafeInteger(n)) return value;
  return `{${value.join(',')}}`;
}

const BYTEA = 17;
// PGlite's own bytea text conversion goes byte by byte through JavaScript strings (Array.from(bytes).map(...) one
// way, parseInt per pair of digits the other): a 10 MB document took 2 s of a core to store on a quiet machine and
// over 30 s on a busy one. Node's native hex codec does the same in milliseconds. (pg sends a Buffer as it is.)
const pgliteParsers: Record<number, (v: string) => unknown> = {
  ...parsers,
  [BYTEA]: (v) => Buffer.from(v.slice(2), 'hex'),
};
const pgliteSerializers: Record<number, (v: unknown) => string> = {
  [BYTEA]: (v) => {
    if (!(v instanceof Uint8Array)) throw new Error('A bytea value is a Uint8Array');
    return `\\x${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}`;
  },
};

/** An embedded database, which can also be written out whole (see `dump`). */
export interface PgliteDb extends Db {
  kind: 'pglite';
  /** The whole database as a tarball: `openPglite(undefined, { from })` opens a copy of it in memory. */
  dump(): Promise<Blob>;
}

/**
 * Opens the embedded database kept in `dataDir`, or a new one in memory; `from` (a `dump()`) starts that one as a
 * copy of another instead of an empty one (the API tests clone a migrated, seeded database per file this way).
 */
export async function openPglite(dataDir?: string, options: { from?: Blob } = {}): Promise<PgliteDb> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const lite = await PGlite.create({
    dataDir,
    loadDataDir: options.from,
    extensions: { pg_trgm, btree_gist },
    parsers: pgliteParsers,
    serializers: pgliteSerializers,
  });
  const run = async <T extends Row>(q: PGlite | Transaction, sql: string, params?: unknown[]) =>
    (await q.query<T>(sql, params?.map(wholeNumberList) as any[])).rows;
  const query: Queryable['query'] = (sql, params) => run(lite, sql, params);
  // PGlite is a single connection: statements are serialised by PGlite itself. It is one process, so its
  // channels need no scope; it delivers a notification before the statement (or the commit) that sent it
  // answers.
  return {
    kind: 'pglite',
    query,
    manyRowsAsJson: true,
    transaction: (fn) =>
      lite.transaction((tx) => fn({ query: (sql, params) => run(tx, sql, params), manyRowsAsJson: true })),
    // PGlite writes the channel into LISTEN unquoted: only plain names are safe.
    listen: (channel, handler) => lite.listen(plainChannel(channel), handler),
    notify: async (channel, payload, via) => {
      await (via ?? { query }).query('select pg_notify($1, $2)', [plainChannel(channel), payload]);
    },
    onListenerState: () => () => undefined,
    // Uncompressed: a copy opens faster than from gzip, and the tarball only lives in a temporary directory.
    dump: () => lite.dumpDataDir('none'),
    close: () => lite.close(),
  };
}

function plainChannel(channel: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel))
    throw new Error(`Channel names are lower-case letters, digits and _: ${channel}`);
  return channel;
}

type Handler = (payload: string) => void;

/**
 * The one connection of a process that LISTENs on PostgreSQL. A pooled connection cannot listen (it is handed
 * to other queries), so this is a client of its own, opened on the first `listen`. When it drops it reconnects
 * with a growing pause, listens again to every channel, and tells `onState` hearers (who clear their caches,
 * since whatever was sent in between is lost).
 */
class PgListener {
  private handlers = new Map<string, Set<Handler>>();
  private hearers = new Set<(listening: boolean) => void>();
  private client?: PgClient;
  private connecting?: Promise<PgClient>;
  private lost = false;
  private closed = false;
  private retry?: NodeJS.Timeout;
  private pause = RETRY_FIRST_MS;

  constructor(private open: () => PgClient) {}

  async listen(channel: string, handler: Handler): Promise<() => Promise<void>> {
    if (!this.handlers.has(channel)) this.handlers.set(channel, new Set());
    this.handlers.get(channel)!.add(handler);
    try {
      // Listening twice to one channel is harmless; a fresh connection has already listened to it.
      await (await this.connection()).query(`listen ${quoteIdent(channel)}`);
    } catch (e) {
      this.handlers.get(channel)!.delete(handler);
      throw e;
    }
    return async () => {
      const set = this.handlers.get(channel);
      set?.delete(handler);
      if (set?.size === 0) {
        this.handlers.delete(channel);
        await this.client?.query(`unlisten ${quoteIdent(channel)}`).catch(() => undefined);
      }
    };
  }

  onState(hearer: (listening: boolean) => void): () => void {
    this.hearers.add(hearer);
    return () => this.hearers.delete(hearer);
  }

  async close() {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private connection(): Promise<PgClient> {
    if (this.client) return Promise.resolve(this.client);
    return (this.connecting ??= this.connect().finally(() => (this.connecting = undefined)));
  }

  private async connect(): Promise<PgClient> {
    if (this.closed) throw new Error('The database is closed.');
    const client = this.open();
    client.on('notification', (m) => {
      for (const handler of this.handlers.get(m.channel) ?? []) {
        try {
          handler(m.payload ?? '');
        } catch (e) {
          console.error(`A handler of notifications on ${m.channel} failed:`, e);
        }
      }
    });
    // Both fire when the server or the network drops the connection; only the first counts.
    let ended = false;
    const ends = () => {
      ended = true;
      this.drop(client);
    };
    client.on('error', ends);
    client.on('end', ends);
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`listen ${quoteIdent(channel)}`);
      if (ended) throw new Error('The listening connection ended as it opened.');
      if (this.closed) throw new Error('The database is closed.');
    } catch (e) {
      await client.end().catch(() => undefined);
      throw e;
    }
    this.client = client;
    this.pause = RETRY_FIRST_MS;
    if (this.lost) {
      this.lost = false;
      this.tell(true);
    }
    return client;
  }

  private drop(client: PgClient) {
    if (this.client !== client) return;
    this.client = undefined;
    this.lost = true;
    this.tell(false);
    this.reconnect();
  }

  private reconnect() {
    if (this.closed) return;
    this.retry = setTimeout(() => {
      this.connection().catch(() => {
        this.pause = Math.min(this.pause * 2, RETRY_MAX_MS);
        this.reconnect();
      });
    }, this.pause);
    this.retry.unref();
  }

  private tell(listening: boolean) {
    for (const hearer of this.hearers) hearer(listening);
  }
}
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 10_000;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** PostgreSQL truncates identifiers (channel names) to 63 bytes; longer scoped names are shortened by a hash. */
function scopedChannel(scope: string, channel: string): string {
  const name = `${scope}.${channel}`;
  return Buffer.byteLength(name) <= 63
    ? name
    : `${createHash('sha256').update(name).digest('hex').slice(0, 40)}.${channel}`.slice(0, 63);
}

/** A statement as node-postgres takes it: named (so prepared once per connection) when asked to be. */
function statement(sql: string, params: unknown[] | undefined, o: QueryOptions | undefined) {
  return {
    text: sql,
    values: params?.map(wholeNumberList) as any[] | undefined,
    name: o?.prepare ? `s${createHash('sha1').update(sql).digest('hex')}` : undefined,
  };
}

export async function openPostgres(url: string, options: { searchPath?: string; max?: number } = {}): Promise<Db> {
  // Loaded only when a PostgreSQL server is used: the embedded database starts without it.
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    options: options.searchPath ? `-c search_path=${options.searchPath}` : undefined,
    types: {
      getTypeParser: ((oid: number, format?: any) => parsers[oid] ?? pg.types.getTypeParser(oid, format)) as any,
    },
  });
  // An idle pooled connection that the server drops emits 'error' on the pool; unheard, that would end the
  // process. The pool replaces the connection by itself.
  pool.on('error', () => undefined);
  // Notifications are database-wide; the schema (from the search path, or the URL's options) scopes them, so
  // test files in their own schemas of one database never hear each other.
  const [{ scope }] = (await pool.query(`select coalesce(current_schema(), '') as scope`)).rows;
  const listener = new PgListener(
    () =>
      new pg.Client({
        connectionString: url,
        options: options.searchPath ? `-c search_path=${options.searchPath}` : undefined,
        keepAlive: true,
        // Named after the process, so an operator (or a test) can tell whose listener it is.
        application_name: `staffing listener ${process.pid}`,
      }),
  );
  return {
    kind: 'postgres',
    listen: (channel, handler) => listener.listen(scopedChannel(scope, channel), handler),
    notify: async (channel, payload, via) => {
      const args = [scopedChannel(scope, channel), payload];
      await (via ? via.query('select pg_notify($1, $2)', args) : pool.query('select pg_notify($1, $2)', args));
    },
    onListenerState: (hearer) => listener.onState(hearer),
    query: async (sql, params, o) => (await pool.query(statement(sql, params, o))).rows,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn({
          query: async (sql, params, o) => (await client.query(statement(sql, params, o))).rows as any,
        });
        await client.query('commit');
        return result;
      } catch (e) {
        await client.query('rollback').catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    },
    async close() {
      await listener.close();
      await pool.end();
    },
  };
}

/** A LIKE pattern matching `text` anywhere, with % and _ taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => '\\' + c)}%`;

/**
 * From this many characters a search_text LIKE is answered by the trigram index. Shorter fragments have no
 * trigram to look up, so the planner scans by the sort order instead.
 */
export const TRIGRAM_MIN_LENGTH = 3;

/** Opens the configured database and brings its schema up to date. */
export async function openDatabase(config: {
  databaseUrl?: string;
  dataDir: string;
}): Promise<{ db: Db; created: boolean }> {
  const db = config.databaseUrl ? await openPostgres(config.databaseUrl) : await openPglite(config.dataDir);
  const { applied, fresh } = await migrate(db);
  void applied;
  return { db, created: fresh };
}
