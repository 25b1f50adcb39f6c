import { createRequire } from 'node:module';
import type Holidays from 'date-holidays';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { provideHolidayLibrary } from '../../core/domain/pricing/holidays';

// The bank-holiday rules load their library through whoever uses them, as the server does (server/services/holidays).
provideHolidayLibrary(() => createRequire(import.meta.url)('date-holidays') as typeof Holidays);

// Two kinds of unit test file share this setup:
//  - pure ones (domain rules, validation, reducers) declare `// @vitest-environment node` on their first line: no
//    DOM, no React Testing Library, no msw to load (half the cost of such a file is jsdom and these imports); they
//    run after the others (tests/sequencer.ts), so a worker changes environment once;
//  - the others (providers, components) run in jsdom against the msw handlers.
if (typeof document === 'undefined') {
  // A pure test reaches no API: a call is a bug (or a file that should not be declared pure).
  vi.stubGlobal('fetch', (input: unknown) =>
    Promise.reject(new Error(`A pure (node-environment) unit test made a request: ${String(input)}`)),
  );
} else {
  await import('@testing-library/jest-dom/vitest');
  const { cleanup, configure } = await import('@testing-library/react');
  const { server } = await import('./msw/server');
  const { assertNoDrift } = await import('./msw/contract');
  const { forgetPrefetched } = await import('../../src/providers/dataProvider');
  const { forgetIdentity } = await import('../../src/providers/authProvider');

  // findBy*/waitFor give up after 1 s by default. A list's search is debounced 500 ms before its call, and on a
  // shared 2-core machine a react-admin screen can take well over a second more to render the answer (measured: the
  // search call 2.1–2.5 s after the typing, on the old packages and Node 20 as on the new): the same tests failed on
  // both with the default. A positive state is still awaited; only a real failure takes the full time.
  configure({ asyncUtilTimeout: 10_000 });

  // Unhandled requests are a test bug: the handlers must reproduce every call the code under test makes. (msw 3
  // calls a request or a WebSocket connection a "frame": `onUnhandledFrame` is msw 2's `onUnhandledRequest`.)
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    cleanup();
    localStorage.clear();
    // The files of a worker share one module graph (isolate: false in vitest.config.ts): what the providers keep
    // between calls is forgotten after each test, as a sign-out forgets it.
    forgetPrefetched();
    forgetIdentity();
    // A fake that answered what the server never would fails the test that relied on it (tests/unit/msw/contract.ts).
    assertNoDrift();
  });
  afterAll(() => server.close());
}
