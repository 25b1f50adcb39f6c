import { request, Agent } from 'node:http';
import { loadavg } from 'node:os';
import { startServer } from '../tests/e2e/product';
import { pct } from './lists';
import type { Benchmark } from './lib';

/**
 * A flood of failed sign-ins against the production server (`node dist/server/index.mjs`, embedded database,
 * the built app's files): FLOOD failed sign-ins (unknown e-mails, so each costs a full password hash) from
 * ADDRESSES loopback addresses (127.0.0.2…, real source addresses, no proxy header), all sent at once. While
 * it runs, a real user at 127.0.0.1 signs in again and again, and the app's page (GET /) is asked for again and
 * again, one request at a time each; their latencies are compared with the same requests at rest.
 */
const FLOOD = 200;
const ADDRESSES = 10;
const AT_REST = 10;

interface Answer {
  status: number;
  ms: number;
}

function send(base: string, agent: Agent, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
  const started = performance.now();
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((ok, fail) => {
    const req = request(
      `${base}${path}`,
      {
        method,
        agent,
        headers: payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {},
      },
      (res) => {
        res.resume();
        res.on('end', () => ok({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on('error', fail);
    req.end(payload);
  });
}

const summary = (xs: Answer[]) => ({
  p50: pct(
    xs.map((x) => x.ms),
    50,
  ),
  p99: pct(
    xs.map((x) => x.ms),
    99,
  ),
  n: xs.length,
});
const statuses = (xs: Answer[]) =>
  xs.reduce<Record<number, number>>((acc, x) => ((acc[x.status] = (acc[x.status] ?? 0) + 1), acc), {});

export const signinFlood: Benchmark = {
  name: 'signin-flood',
  description: `sign-in and GET / latency during ${FLOOD} failed sign-ins from ${ADDRESSES} addresses`,
  async run(ctx) {
    const server = await startServer({ build: ctx.build, timeoutMs: 600_000 });
    try {
      const base = server.url;
      const me = new Agent({ keepAlive: true, localAddress: '127.0.0.1' });
      const page = new Agent({ keepAlive: true, localAddress: '127.0.0.1' });
      const signIn = () =>
        send(base, me, 'POST', '/api/admin_login', { email: 'admin@demo.test', password: 'demo-admin' });
      const home = () => send(base, page, 'GET', '/');
      // Warm: the decoy hash, the page's file, the database's caches.
      await signIn();
      await home();
      // The decoy hash is warmed from another address: the user's own has no failed sign-in.
      const warm = new Agent({ keepAlive: false, localAddress: '127.0.0.200' });
      await send(base, warm, 'POST', '/api/admin_login', { email: 'nobody@bench.test', password: 'wrong' });
      warm.destroy();
      const restSignIn: Answer[] = [];
      const restHome: Answer[] = [];
      for (let i = 0; i < AT_REST; i++) restSignIn.push(await signIn());
      for (let i = 0; i < AT_REST * 3; i++) restHome.push(await home());

      const agents = Array.from(
        { length: ADDRESSES },
        (_, i) => new Agent({ keepAlive: true, maxSockets: FLOOD, localAddress: `127.0.0.${i + 2}` }),
      );
      const started = performance.now();
      let done = false;
      const flood = Promise.all(
        Array.from({ length: FLOOD }, (_, i) =>
          send(base, agents[i % ADDRESSES], 'POST', '/api/admin_login', {
            email: `flood-${i}@bench.test`,
            password: 'not-the-password',
          }),
        ),
      ).finally(() => (done = true));
      const loop = async (fn: () => Promise<Answer>) => {
        const out: Answer[] = [];
        while (!done) out.push(await fn());
        return out;
      };
      const [floodAnswers, duringSignIn, duringHome] = await Promise.all([flood, loop(signIn), loop(home)]);
      const floodMs = performance.now() - started;
      for (const a of [me, page, ...agents]) a.destroy();

      const rest = { signIn: summary(restSignIn), home: summary(restHome) };
      const during = { signIn: summary(duringSignIn), home: summary(duringHome) };
      return {
        metrics: [
          { name: 'sign-in at rest: p50', value: +rest.signIn.p50.toFixed(1), unit: 'ms' },
          {
            name: `sign-in during the flood: p50 (${during.signIn.n} sign-ins)`,
            value: +during.signIn.p50.toFixed(1),
            unit: 'ms',
            anchor: +rest.signIn.p50.toFixed(1),
            anchorNote: 'at rest',
          },
          {
            name: 'sign-in during the flood: p99',
            value: +during.signIn.p99.toFixed(1),
            unit: 'ms',
            anchor: +rest.signIn.p50.toFixed(1),
            anchorNote: 'at rest (p50)',
          },
          { name: 'GET / at rest: p50', value: +rest.home.p50.toFixed(1), unit: 'ms' },
          {
            name: `GET / during the flood: p50 (${during.home.n} requests)`,
            value: +during.home.p50.toFixed(1),
            unit: 'ms',
            anchor: +rest.home.p50.toFixed(1),
            anchorNote: 'at rest',
          },
          { name: 'GET / during the flood: p99', value: +during.home.p99.toFixed(1), unit: 'ms', target: 200 },
          { name: `flood of ${FLOOD} failed sign-ins: all answered in`, value: +floodMs.toFixed(0), unit: 'ms' },
        ],
        details: {
          load_average_before: +loadavg()[0].toFixed(2),
          at_rest: rest,
          during_flood: during,
          flood_statuses: statuses(floodAnswers),
          sign_in_statuses_during: statuses(duringSignIn),
          home_statuses_during: statuses(duringHome),
        },
      };
    } finally {
      await server.stop();
    }
  },
};
