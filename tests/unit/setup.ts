import '@testing-library/jest-dom/vitest';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { server } from './msw/server';

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
});
afterAll(() => server.close());
