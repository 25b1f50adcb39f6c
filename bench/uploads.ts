import type { AddressInfo } from 'node:net';
import { buildApp } from '../server/app';
import { migrate } from '../server/db/migrate';
import { LoginThrottle } from '../server/auth/throttle';
import { createAgency } from '../server/seed/index';
import type { Db } from '../server/db';
import { median, onEachDatabase, type Benchmark, type Metric } from './lib';

/**
 * A 10 MB document (the largest a user may upload) sent to POST /api/files over HTTP and read back with
 * GET /api/files/:id, on each database (issue 30 point 9): the median of RUNS, and the process's CPU time per upload
 * (what a busy machine multiplies). PGlite's own bytea conversion took 2 s of a core per 10 MB on a quiet machine
 * (34 s at load 8–10); server/db/index.ts converts with Node's hex codec instead.
 *
 * `npm run bench -- uploads`.
 */
const SIZE = 10 * 1024 * 1024;
const RUNS = 5;
const EMAIL = 'bench-uploads@bench.test';
const PASSWORD = 'bench-password-1';

function document(): Buffer {
  const head = Buffer.from('%PDF-1.4\n', 'latin1');
  const body = Buffer.alloc(SIZE - head.length);
  // Not all zeros: a real document does not compress to nothing in the database.
  for (let i = 0; i + 4 <= body.length; i += 4) body.writeUInt32LE((i * 2654435761) >>> 0, i);
  return Buffer.concat([head, body]);
}

async function measure(db: Db, label: string) {
  await migrate(db);
  await db.transaction((tx) =>
    createAgency(tx, { companyName: 'Bench Uploads', adminName: 'Bench Admin', email: EMAIL, password: PASSWORD }),
  );
  const app = await buildApp({
    db,
    config: { tokenLifetimeSeconds: 3600, staticDir: undefined, rateLimitPerMinute: 1_000_000 },
    throttle: new LoginThrottle(),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const token = (
      await app.inject({ method: 'POST', url: '/api/admin_login', payload: { email: EMAIL, password: PASSWORD } })
    ).json().token;
    const bytes = document();
    const up: number[] = [];
    const cpu: number[] = [];
    const down: number[] = [];
    for (let i = 0; i <= RUNS; i++) {
      const before = process.cpuUsage();
      let t = performance.now();
      const res = await fetch(`${origin}/api/files?kind=document`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/pdf', 'x-file-name': 'big.pdf' },
        body: new Uint8Array(bytes),
      });
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      const { id } = (await res.json()).data;
      const upMs = performance.now() - t;
      const used = process.cpuUsage(before);
      t = performance.now();
      const file = await fetch(`${origin}/api/files/${id}`, { headers: { authorization: `Bearer ${token}` } });
      const got = Buffer.from(await file.arrayBuffer());
      if (!got.equals(bytes)) throw new Error('the file read back differs from the upload');
      // The first run loads code and warms caches: not counted.
      if (i === 0) continue;
      up.push(upMs);
      cpu.push((used.user + used.system) / 1000);
      down.push(performance.now() - t);
    }
    const metrics: Metric[] = [
      {
        name: `10 MB document upload, ${label}, median of ${RUNS}`,
        value: Math.round(median(up)),
        unit: 'ms',
        note: `${Math.round(median(cpu))} ms of CPU in this process (server and client)`,
      },
      { name: `10 MB document read back, ${label}, median of ${RUNS}`, value: Math.round(median(down)), unit: 'ms' },
    ];
    return { metrics, details: { up, cpu, down }, plans: [] };
  } finally {
    await app.close();
  }
}

export const uploads: Benchmark = {
  name: 'uploads',
  description: 'a 10 MB document uploaded and read back over HTTP, on each database',
  async run() {
    const details: Record<string, unknown> = {};
    const metrics = await onEachDatabase(
      ['pglite', 'postgres'],
      { pglite: 'PGlite', postgres: 'PostgreSQL' },
      details,
      (kind, db) => measure(db, kind === 'pglite' ? 'PGlite' : 'PostgreSQL'),
    );
    return { metrics, details };
  },
};
