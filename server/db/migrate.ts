import type { Db } from './index.js';
import { migrations } from './migrations/index.js';

/** Applies pending migrations in order, each in its own transaction. `fresh` tells a brand-new database. */
export async function migrate(db: Db): Promise<{ applied: string[]; fresh: boolean }> {
  await db.query(
    `create table if not exists schema_migrations (id text primary key, applied_at timestamptz not null default now())`,
  );
  const done = new Set((await db.query<{ id: string }>('select id from schema_migrations')).map((r) => r.id));
  const fresh = done.size === 0;
  const applied: string[] = [];
  for (const m of migrations) {
    if (done.has(m.id)) continue;
    await db.transaction(async (tx) => {
      for (const statement of splitStatements(m.sql)) await tx.query(statement);
      await tx.query('insert into schema_migrations (id) values ($1)', [m.id]);
    });
    applied.push(m.id);
  }
  return { applied, fresh };
}

// Extended-protocol queries take one statement each. Statements end with a semicolon at the end of a line;
// a dollar-quoted body ($$ ... $$, a trigger function) is kept whole.
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (const line of sql.split('\n')) {
    if (!quoted && /^\s*--/.test(line)) continue;
    current += line + '\n';
    if ((line.match(/\$\$/g)?.length ?? 0) % 2 === 1) quoted = !quoted;
    if (!quoted && /;\s*$/.test(line)) {
      out.push(current.trim().replace(/;$/, ''));
      current = '';
    }
  }
  if (current.trim()) out.push(current.trim());
  return out.filter(Boolean);
}
