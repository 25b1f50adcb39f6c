import { useCallback, useRef } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A screen's view state kept in its address (?week=…&q=…): the query parameters, and an update that sets or
 * (when empty) removes some of them in place, without a history entry per change, so a reload, a bookmark and
 * Back show the same view.
 *
 * Each update starts from the parameters as the last update left them, not from those of the last render: React
 * Router's own "previous" parameters are the render's, so a second change made before the screen re-rendered (a
 * click on Next week just after the search reached the address) used to drop the first one.
 */
export function useAddressState(): [
  URLSearchParams,
  (changes: Record<string, string | number | null | undefined>) => void,
] {
  const [params, setParams] = useSearchParams();
  const latest = useRef(params);
  latest.current = params;
  const update = useCallback(
    (changes: Record<string, string | number | null | undefined>) => {
      const next = new URLSearchParams(latest.current);
      for (const [k, v] of Object.entries(changes))
        if (v == null || v === '') next.delete(k);
        else next.set(k, String(v));
      latest.current = next;
      setParams(next, { replace: true });
    },
    [setParams],
  );
  return [params, update];
}
