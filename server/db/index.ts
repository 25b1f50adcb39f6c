import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { migrate } from './migrate.js';

export type Row = Record<string, any>;

/** The part of a database connection that runs statements: the pool itself, or one transaction. */
export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Db extends Queryable {
  kind: 'pglite' | 'postgres';
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

// Both drivers return the same JavaScript values: int8 and counts as numbers (ids and money in minor
// units stay far below 2^53), dates as 'yyyy-MM-dd' strings (no time-zone shift), timestamps as ISO strings.
const INT8 = 20;
const DATE = 1082;
const TIMESTAMP = 1114;
const TIMESTAMPTZ = 1184;
function toIso(v: string): string {
  // Postgres writes '2026-11-22 13:08:54.691+00'; JavaScript wants 'T' and a '+00:00' offset.
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

export async function openPglite(dataDir?: string): Promise<Db> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const lite = await PGlite.create({ dataDir, extensions: { pg_trgm }, parsers });
  const run = async <T extends Row>(q: PGlite | Transaction, sql: string, params?: unknown[]) =>
    (await q.query<T>(sql, params as any[])).rows;
  // PGlite is a single connection: statements are serialised by PGlite itself.
  return {
    kind: 'pglite',
    query: (sql, params) => run(lite, sql, params),
    transaction: (fn) => lite.transaction((tx) => fn({ query: (sql, params) => run(tx, sql, params) })),
    close: () => lite.close(),
  };
}

export async function openPostgres(url: string, options: { searchPath?: string; max?: number } = {}): Promise<Db> {
  // Loaded only when a PostgreSQL server is used: the embedded database starts without it.
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    options: options.searchPath ? `-c search_path=${options.searchPath}` : undefined,
    types: { getTypeParser: ((oid: number, format?: any) => parsers[oid] ?? pg.types.getTypeParser(oid, format)) as any },
  });
  await pool.query('select 1');
  return {
    kind: 'postgres',
    query: async (sql, params) => (await pool.query(sql, params as any[])).rows,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn({ query: async (sql, params) => (await client.query(sql, params as any[])).rows as any });
        await client.query('commit');
        return result;
      } catch (e) {
        await client.query('rollback').catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
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
export async function openDatabase(config: { databaseUrl?: string; dataDir: string }): Promise<{ db: Db; created: boolean }> {
  const db = config.databaseUrl ? await openPostgres(config.databaseUrl) : await openPglite(config.dataDir);
  const { applied, fresh } = await migrate(db);
  void applied;
  return { db, created: fresh };
}
