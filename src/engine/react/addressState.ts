import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A screen's view state kept in its address (?week=…&q=…): the query parameters, and an update that sets or
 * (when empty) removes some of them in place, without a history entry per change, so a reload, a bookmark and
 * Back show the same view.
 */
export function useAddressState(): [
  URLSearchParams,
  (changes: Record<string, string | number | null | undefined>) => void,
] {
  const [params, setParams] = useSearchParams();
  const update = useCallback(
    (changes: Record<string, string | number | null | undefined>) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(changes))
            if (v == null || v === '') next.delete(k);
            else next.set(k, String(v));
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [params, update];
}
