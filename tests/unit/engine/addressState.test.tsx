import { act, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useAddressState } from '../../../src/engine/react/addressState';

/** A screen keeping its view in the address; `changes` made by the test through its update. */
function mount(initial: string) {
  const seen: { update?: ReturnType<typeof useAddressState>[1] } = {};
  function Screen() {
    const [params, update] = useAddressState();
    seen.update = update;
    return <p data-testid="params">{params.toString()}</p>;
  }
  const router = createMemoryRouter([{ path: '/grid', element: <Screen /> }], { initialEntries: [initial] });
  const view = render(<RouterProvider router={router} />);
  return { router, view, update: () => seen.update! };
}

describe('useAddressState', () => {
  it('sets and removes parameters in place, keeping the others', async () => {
    const t = mount('/grid?q=lee&page=3');
    await act(async () => t.update()({ week: '2026-11-23', page: null }));
    expect(t.router.state.location.search).toBe('?q=lee&week=2026-11-23');
    expect(t.view.getByTestId('params').textContent).toBe('q=lee&week=2026-11-23');
  });

  it('a second change made before the screen re-renders keeps the first (the search, then Next week)', async () => {
    const t = mount('/grid');
    // Both from the same render's update, as a click right after the search's pause would.
    const update = t.update();
    await act(async () => {
      update({ q: 'lee', page: null });
      update({ week: '2026-11-30', page: null });
    });
    expect(new URLSearchParams(t.router.state.location.search).get('q')).toBe('lee');
    expect(new URLSearchParams(t.router.state.location.search).get('week')).toBe('2026-11-30');
  });

  it('replaces the history entry instead of adding one per change', async () => {
    const t = mount('/grid');
    await act(async () => t.update()({ q: 'a' }));
    await act(async () => t.update()({ q: 'ab' }));
    expect(t.router.state.historyAction).toBe('REPLACE');
  });
});
