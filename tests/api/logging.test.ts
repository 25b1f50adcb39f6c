import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { LoginThrottle } from '../../server/auth/throttle';
import { loggerOptions, redactUrl } from '../../server/logging';
import { makeTestApp, type TestApp } from './helpers';

// Issue 30.16: with LOG_LEVEL=info the request log wrote signing-link and invitation tokens as they came in the path.
let t: TestApp;
let app: FastifyInstance;
const lines: string[] = [];

beforeAll(async () => {
  t = await makeTestApp({ seed: 'none' });
  app = await buildApp({
    db: t.db,
    config: { tokenLifetimeSeconds: 3600 },
    throttle: new LoginThrottle({ namespace: 'logging:' }),
    logger: loggerOptions('info', { write: (line) => void lines.push(line) }),
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

const TOKEN = 'Qx7secretTokenValue_abcdefghijklmnopqrstuvw';

it('writes every request at info with its path, the tokens of links and invitations redacted', async () => {
  const requests: [string, string][] = [
    ['GET', `/api/capability/${TOKEN}`],
    ['POST', `/api/capability/${TOKEN}/actions/sign`],
    ['GET', `/api/staff_invites/${TOKEN}`],
    ['POST', `/api/user_invites/${TOKEN}`],
    ['GET', `/sign-timesheet/${TOKEN}`],
    ['GET', `/invite/${TOKEN}?from=mail`],
    ['GET', `//api//capability/${TOKEN}`],
    ['GET', `/api/health?token=${TOKEN}`],
  ];
  for (const [method, url] of requests)
    await app.inject({ method: method as 'GET', url, payload: method === 'POST' ? {} : undefined });
  const log = lines.join('');
  expect(log).not.toContain(TOKEN);
  const urls = lines
    .map((l) => JSON.parse(l))
    .filter((e) => e.req)
    .map((e) => e.req.url);
  expect(urls).toEqual([
    '/api/capability/[redacted]',
    '/api/capability/[redacted]/actions/sign',
    '/api/staff_invites/[redacted]',
    '/api/user_invites/[redacted]',
    '/sign-timesheet/[redacted]',
    '/invite/[redacted]?from=mail',
    '//api//capability/[redacted]',
    '/api/health?token=[redacted]',
  ]);
});

it('leaves other paths as they are', () => {
  expect(redactUrl('/api/clients/12?q=capability')).toBe('/api/clients/12?q=capability');
  expect(redactUrl('/client/client-list')).toBe('/client/client-list');
});
