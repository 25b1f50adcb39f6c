/**
 * List totals are cached per agency and filter, and dropped whenever the engine writes to that table for that
 * agency: counting 60,000 matching staff costs more than fetching the page. The short lifetime bounds how long
 * a write made outside the engine can go unseen. With several processes, `changed` is published to all of
 * them (see `onChanged`), so a write in one process invalidates the totals of every process.
 */
const TOTAL_TTL_MS = 10_000;
export class TotalCache {
  private totals = new Map<string, { n: number; until: number }>();
  private versions = new Map<string, number>();
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
  get(key: string) {
    const hit = this.totals.get(key);
    return hit && hit.until > Date.now() ? hit.n : undefined;
  }
  set(key: string, n: number) {
    if (this.totals.size > 5000) this.totals.clear();
    this.totals.set(key, { n, until: Date.now() + TOTAL_TTL_MS });
  }
  /** A committed write: drop this process's totals at once, and tell the others. */
  changed(table: string, merchantId: number) {
    this.invalidate(table, merchantId);
    this.publish?.(table, merchantId);
  }
  /** Drops the totals of one table and agency (a write here or in another process). */
  invalidate(table: string, merchantId: number) {
    this.versions.set(`${table}|${merchantId}`, this.version(table, merchantId) + 1);
  }
  /** Forget everything (e.g. after losing the connection that brings other processes' news). */
  clear() {
    this.totals.clear();
  }
}
