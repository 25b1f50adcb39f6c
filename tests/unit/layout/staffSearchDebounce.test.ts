import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_DEBOUNCE_MS, useDebouncedQuery } from '../../../src/layout/StaffSearch';

// The top bar's staff search asks once the typing stops, for what was typed without its spaces (spec section 9). On
// the clock of the test: in the browser, keys typed 40 ms apart arrive 300 ms apart on a busy machine.
describe('the staff search debounce', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keys typed faster than 300 ms ask once, for the whole word, trimmed', () => {
    const asked: string[] = [];
    const { rerender } = renderHook(
      ({ input }) => {
        const query = useDebouncedQuery(input);
        if (asked.at(-1) !== query) asked.push(query);
        return query;
      },
      { initialProps: { input: '' } },
    );
    let typed = '';
    for (const key of '  Smith ') {
      typed += key;
      rerender({ input: typed });
      act(() => vi.advanceTimersByTime(40));
    }
    expect(asked).toEqual(['']);
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 41));
    expect(asked).toEqual(['']);
    act(() => vi.advanceTimersByTime(1));
    expect(asked).toEqual(['', 'Smith']);
  });

  it('a pause of 300 ms between keys asks for what was typed so far', () => {
    const { result, rerender } = renderHook(({ input }) => useDebouncedQuery(input), {
      initialProps: { input: 'S' },
    });
    rerender({ input: ' Sm' });
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS));
    expect(result.current).toBe('Sm');
  });
});
