import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/app';
import { openPglite, openPostgres, type Db } from '../server/db';
import { migrate } from '../server/db/migrate';
import { createAgency } from '../server/seed/index';
import { LoginThrottle } from '../server/auth/throttle';
import { STREAMS_PER_SESSION } from '../server/chat/live';
import { median, pgSchema, PG_URL, type Benchmark, type BenchmarkResult, type Metric } from './lib';
import { pct } from './lists';
import { readEvents } from '../src/resources/communication/chat/eventStream';

/**
 * Chat latency (issue 9, "Performance"): from a message sent to the message shown on the other side, with
 * STREAMS chat screens open. Two server processes' worth of apps on one database (each its own cluster bus
 * listener: on PostgreSQL the message crosses LISTEN/NOTIFY), half the screens on each; one sender posts
 * MESSAGES messages through the first, one every GAP_MS. The latency of each delivery is the time from the
 * send call starting to the event read by the screen's stream (all in this process, one clock).
 *
 * `npm run bench -- chat`. Knobs: BENCH_CHAT_STREAMS (200), BENCH_CHAT_MESSAGES (50), BENCH_CHAT_DB (postgres|pglite).
 */
const STREAMS = Number(process.env.BENCH_CHAT_STREAMS || 200);
const MESSAGES = Number(process.env.BENCH_CHAT_MESSAGES || 50);
const GAP_MS = 100;
const TARGET_P99_MS = 1000;
const EMAIL = 'bench-chat@bench.test';
const PASSWORD = 'bench-password-1';

/** PostgreSQL in a throwaway schema when reachable (the real cross-process path), else PGlite. */
async function openDatabase(): Promise<{ db: Db; label: string; close: () => Promise<void> }> {
  if (process.env.BENCH_CHAT_DB !== 'pglite') {
    const schema = await pgSchema().catch(() => undefined);
    if (schema) {
      const db = await openPostgres(PG_URL, { searchPath: `${schema.schema},public`, max: 10 });
      return {
        db,
        label: 'PostgreSQL',
        close: async () => {
          await db.close().catch(() => undefined);
          await schema.drop();
        },
      };
    }
  }
  const db = await openPglite();
  return { db, label: 'PGlite', close: () => db.close() };
}

/** A screen's stream: calls `heard(messageId)` for each message event. */
async function openStream(
  base: string,
  token: string,
  heard: (id: number) => void,
  signal: AbortSignal,
): Promise<void> {
  const res = await fetch(`${base}/api/chats/stream?wait=300`, {
    headers: { authorization: `Bearer ${token}` },
    signal,
  });
  if (!res.ok) throw new Error(`A chat stream was refused: ${res.status} ${await res.text()}`);
  let ready!: () => void;
  const isReady = new Promise<void>((r) => (ready = r));
  readEvents<{ type: string; message?: { id: number } }>(res.body!, (e) => {
    if (e.type === 'ready') ready();
    if (e.type === 'message') heard(e.message!.id);
  }).catch(() => undefined /* aborted at the end */);
  return isReady;
}

async function run(): Promise<BenchmarkResult> {
  const { db, label, close } = await openDatabase();
  const apps: FastifyInstance[] = [];
  const controller = new AbortController();
  try {
    await migrate(db);
    const { merchantId } = await db.transaction((tx) =>
      createAgency(tx, { companyName: 'Bench Chat', adminName: 'Bench Admin', email: EMAIL, password: PASSWORD }),
    );
    const [candidate] = await db.query<{ id: number }>(
      `insert into candidates (merchant_id, first_name, last_name, email) values ($1, 'Bench', 'Staff', 'bench.staff@bench.test') returning id`,
      [merchantId],
    );
    for (let i = 0; i < 2; i++) {
      apps.push(
        await buildApp({
          db,
          config: { tokenLifetimeSeconds: 3600, staticDir: undefined, rateLimitPerMinute: 1_000_000 },
          throttle: new LoginThrottle({ namespace: `bench-${randomBytes(4).toString('hex')}:` }),
        }),
      );
    }
    const bases = await Promise.all(apps.map((a) => a.listen({ host: '127.0.0.1', port: 0 })));
    // A session may hold STREAMS_PER_SESSION streams (a user's tabs): the screens are that many to a session.
    const signIn = async () => {
      const login = await fetch(`${bases[0]}/api/admin_login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
      });
      if (!login.ok) throw new Error(`Signing in answered ${login.status}: ${await login.text()}`);
      return ((await login.json()) as { token: string }).token;
    };
    const tokens: string[] = [];
    for (let i = 0; i < Math.ceil(STREAMS / STREAMS_PER_SESSION); i++) tokens.push(await signIn());
    const token = tokens[0];
    const post = (path: string, body: unknown) =>
      fetch(`${bases[0]}/api${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<any>);
    const { channel_sid } = await post('/chats/create_channel', {
      sender_id: candidate.id,
      sender_type: 'Candidate',
      receiver_id: merchantId,
      receiver_type: 'Merchant',
    });

    // When each message was sent, and when each screen heard it.
    const sentAt = new Map<number, number>();
    const pending = new Map<number, number[]>();
    const latencies: number[] = [];
    const heard = (id: number) => {
      const at = performance.now();
      const sent = sentAt.get(id);
      if (sent === undefined) (pending.get(id) ?? pending.set(id, []).get(id)!).push(at);
      else latencies.push(at - sent);
    };
    console.log(`\n  [${label}] opening ${STREAMS} chat streams on 2 servers…`);
    await Promise.all(
      Array.from({ length: STREAMS }, (_, i) =>
        openStream(bases[i % 2], tokens[Math.floor(i / STREAMS_PER_SESSION)], heard, controller.signal),
      ),
    );

    console.log(`  [${label}] sending ${MESSAGES} messages…`);
    for (let i = 0; i < MESSAGES; i++) {
      const start = performance.now();
      const answer = await post('/chats/send_message_to_channel', { channel_sid, message: `Bench message ${i}` });
      const id = answer.data.id as number;
      sentAt.set(id, start);
      // Heard before the send call answered (the sender waits for its own message to come back).
      for (const at of pending.get(id) ?? []) latencies.push(at - start);
      pending.delete(id);
      await new Promise((r) => setTimeout(r, GAP_MS));
    }
    // Let the last deliveries land.
    const deadline = Date.now() + 5000;
    while (latencies.length < STREAMS * MESSAGES && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

    const delivered = latencies.length;
    const p50 = median(latencies);
    const p99 = pct(latencies, 99);
    const metrics: Metric[] = [
      { name: `chat send→shown p50, ${STREAMS} screens (${label})`, value: +p50.toFixed(1), unit: 'ms' },
      {
        name: `chat send→shown p99, ${STREAMS} screens (${label})`,
        value: +p99.toFixed(1),
        unit: 'ms',
        target: TARGET_P99_MS,
      },
      {
        name: `chat deliveries (${label})`,
        value: delivered,
        unit: 'of ' + STREAMS * MESSAGES,
        note: delivered === STREAMS * MESSAGES ? 'none lost' : 'SOME LOST',
      },
    ];
    return {
      metrics,
      details: {
        database: label,
        streams: STREAMS,
        messages: MESSAGES,
        gap_ms: GAP_MS,
        max_ms: +Math.max(...latencies).toFixed(1),
      },
    };
  } finally {
    controller.abort();
    for (const a of apps) await a.close().catch(() => undefined);
    await close();
  }
}

export const chat: Benchmark = {
  name: 'chat',
  description: `chat latency from send to shown with ${STREAMS} open chat screens on two servers`,
  run,
};
