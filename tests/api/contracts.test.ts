import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ seed: 'none' });
});
afterAll(async () => {
  await t?.close();
});

// Fastify's path syntax (/api/x/:id) as the OpenAPI document writes it (/api/x/{id}).
const openApiPath = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}');

describe('the API description (issue 15, typed contracts)', () => {
  it('documents every API route with a response schema for its success status', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    // Every route the app serves under /api, except the description itself and the hidden health check.
    const routes = t.app.routes.filter(
      (r) => r.method !== 'HEAD' && /^\/api\//.test(r.url) && !r.url.startsWith('/api/docs') && r.url !== '/api/health',
    );
    expect(routes.length).toBeGreaterThan(100);
    const missing: string[] = [];
    for (const r of routes) {
      const operation = doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()];
      if (!operation) {
        missing.push(`${r.method} ${r.url}: not described`);
        continue;
      }
      const success = Object.entries(operation.responses ?? {}).filter(([status]) => /^2\d\d$/.test(status));
      const described = success.filter(([, answer]: [string, any]) =>
        Object.values(answer.content ?? {}).some((c: any) => c.schema && Object.keys(c.schema).length > 0),
      );
      if (described.length === 0)
        missing.push(
          `${r.method} ${r.url}: no response schema for ${success.map(([s]) => s).join(', ') || 'its success status'}`,
        );
    }
    expect(missing).toEqual([]);
  });
});
