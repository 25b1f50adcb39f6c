import type { Row } from '../db/index.js';

/**
 * What lists read again and again, kept between writes:
 * - list totals, per agency and filter, dropped whenever the engine writes to that table for that agency:
 *   counting 60,000 matching staff costs more than fetching the page;
 * - the records lists bring along as references (a shift list's clients, sites, roles and staff), per agency and
 *   reader, dropped by any write of the agency (a reference's computed fields may read other tables: a shift's
 *   staff name). Resolving them took more statements than the page itself.
 * The short lifetime bounds how long a write made outside the engine can go unseen (and a computed field that
 * changes with the clock alone). With several processes, `changed` is published to all of them (see
 * `onChanged`), so a write in one process invalidates what every process keeps.
 */
const TOTAL_TTL_MS = 10_000;
/** Records kept per reader and resource, at most: a reader paging through every shift does not keep every staff. */
const REFERENCES_KEPT = 2000;
export class TotalCache {
  private totals = new Map<string, { n: unknown; until: number }>();
  private versions = new Map<string, number>();
  private generations = new Map<number, number>();
  private references = new Map<string, { rows: Map<number, Row | null>; until: number }>();
  /** Set by the app when processes share a database: tells every process (this one included) of a write. */
  publish?: (table: string, merchantId: number) => void;
  private version = (table: string, merchantId: number) => this.versions.get(`${table}|${merchantId}`) ?? 0;
  /** Bumped by every write to the table by the agency (here or, through the cluster, in another process). */
  versionOf(table: string, merchantId: number) {
    return this.version(table, merchantId);
  }
  key(table: string, merchantId: number, where: string, params: unknown[]) {
    return `${table}|${merchantId}|${this.version(table, merchantId)}|${where}|${JSON.stringify(params)}`;
  }
  /** A list's count (or, for a list with declared totals, its count and sums) under `key`. */
  get<T = number>(key: string): T | undefined {
    const hit = this.totals.get(key);
    return hit && hit.until > Date.now() ? (hit.n as T) : undefined;
  }
  set(key: string, n: unknown) {
    if (this.totals.size > 5000) this.totals.clear();
    this.totals.set(key, { n, until: Date.now() + TOTAL_TTL_MS });
  }
  /**
   * The records of `resource` already read for this reader (a principal and day: what the select list and the
   * row scope depend on) since the agency's last write, by id; null for an id out of the reader's scope. Add what
   * is read to it. Callers read committed data only (never inside a write's transaction).
   */
  referencesOf(resource: string, merchantId: number, reader: string): Map<number, Row | null> {
    const key = `${resource}|${merchantId}|${this.generations.get(merchantId) ?? 0}|${reader}`;
    const hit = this.references.get(key);
    if (hit && hit.until > Date.now() && hit.rows.size <= REFERENCES_KEPT) return hit.rows;
    if (this.references.size > 5000) this.references.clear();
    const rows = new Map<number, Row | null>();
    this.references.set(key, { rows, until: Date.now() + TOTAL_TTL_MS });
    return rows;
  }
  /** A committed write: drop this process's totals at once, and tell the others. */
  changed(table: string, merchantId: number) {
    this.invalidate(table, merchantId);
    this.publish?.(table, merchantId);
  }
  /** Drops the totals of one table and agency (a write here or in another process). */
  invalidate(table: string, merchantId: number) {
    this.versions.set(`${table}|${merchantId}`, this.version(table, merchantId) + 1);
    this.generations.set(merchantId, (this.generations.get(merchantId) ?? 0) + 1);
  }
  /** Forget everything (e.g. after losing the connection that brings other processes' news). */
  clear() {
    this.totals.clear();
    this.references.clear();
  }
}
