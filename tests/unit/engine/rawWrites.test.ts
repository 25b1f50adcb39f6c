// @vitest-environment node
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { declarations } from '../../../core/resources/declarations';

// Every write of a declared resource goes through the engine (validation, scope, hooks, version, audit): code
// outside server/engine/ writes one with ctx.engine, never with its own SQL (issue 16). Migrations and the seed
// build the database before any principal exists, so they may.
const root = join(__dirname, '../../..');
const EXEMPT_FOLDERS = ['server/engine/', 'server/db/', 'server/seed/'];

/**
 * Raw writes that stay, each with why. Keyed `file table`. Anything new here needs the same kind of reason.
 */
const KNOWN: Record<string, string> = {
  // Derived columns the staff list filters on, recomputed from the documents: not a change anyone made, so no
  // version (an open form would go stale on every upload) and no audit entry.
  'server/services/compliance.ts candidates': 'derived compliance columns',
  // The reminder job's own bookkeeping (sent at), claimed with SKIP LOCKED across processes.
  'server/notifications/diaryReminders.ts diary_notes': 'reminder sent',
  // An agency's settings row as migration 122 made one for every agency then (its name, zone and logo as merchants
  // has them), made when an agency is made or before the engine's first write of an older one's: its own entry.
  'server/routes/agencySettings.ts agency_settings': 'the row of an agency made before its settings',
};

/** Declared for reading only: the trail and the outbox are written by their own modules, never edited. */
const READ_ONLY_TABLES = new Set(['audit_log', 'email_outbox']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const tables = new Set(declarations.map((d) => d.table).filter((t) => !READ_ONLY_TABLES.has(t)));

/** `file table: line n: statement` for each INSERT, UPDATE or DELETE of a declared table in a source text. */
function writesIn(file: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\b(insert\s+into|update|delete\s+from)\s+"?([a-z_]+)"?/gi)) {
    if (!tables.has(m[2])) continue;
    const line = text.slice(0, m.index).split('\n').length;
    found.push(`${file} ${m[2]}: line ${line}: ${m[0]}`);
  }
  return found;
}

/** The raw writes of declared tables in server/, outside the exempt folders. */
function rawWrites(): string[] {
  return sources(join(root, 'server')).flatMap((path) => {
    const file = relative(root, path).split('\\').join('/');
    return EXEMPT_FOLDERS.some((f) => file.startsWith(f)) ? [] : writesIn(file, readFileSync(path, 'utf8'));
  });
}

describe('writes of declared resources', () => {
  it('finds a raw write of a declared table, not of an undeclared one or a row lock', () => {
    const text =
      "await ctx.db.query('update rate_cards set effective_to = $3 where id = $2');\n" +
      "db.query(`insert into sessions (token_hash) values ($1)`); db.query('select 1 from shifts for update of s');";
    expect(writesIn('x.ts', text)).toEqual(['x.ts rate_cards: line 1: update rate_cards']);
  });

  it('outside the engine go through ctx.engine, never raw SQL (or are listed here with why)', () => {
    const unknown = rawWrites().filter((w) => !KNOWN[w.slice(0, w.indexOf(':'))]);
    expect(unknown).toEqual([]);
  });

  it('lists no exception that is no longer needed', () => {
    const seen = new Set(rawWrites().map((w) => w.slice(0, w.indexOf(':'))));
    expect(Object.keys(KNOWN).filter((k) => !seen.has(k))).toEqual([]);
  });
});
