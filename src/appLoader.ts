import type { ComponentType } from 'react';

/**
 * Loads the signed-in application (App and its libraries) once, for main.tsx's route and the Login page's
 * warm-up, and remembers it, so a route opened after the code has arrived renders it at once instead of through
 * React.lazy: a lazy component always suspends on its first render, and React 19 then holds the fallback on
 * screen for at least 300 ms (its throttle on revealing suspended content), which made every sign-in wait.
 */
let loaded: ComponentType | undefined;
let loading: Promise<{ default: ComponentType }> | undefined;

export function loadApp(): Promise<{ default: ComponentType }> {
  loading ??= import('./App').then(
    (m) => {
      loaded = m.default;
      return m;
    },
    (e: unknown) => {
      // A failed download (network) may be tried again by the next caller.
      loading = undefined;
      throw e;
    },
  );
  return loading;
}

/** The application, when its code has already arrived. */
export const loadedApp = (): ComponentType | undefined => loaded;
