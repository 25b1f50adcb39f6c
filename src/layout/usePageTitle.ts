import { useEffect } from 'react';

/**
 * The text document.title shows for a screen: "<screen> · <agency>", or the agency alone when the screen has no title.
 */
export function documentTitle(screen: string, agency: string) {
  const s = screen.replace(/\s+/g, ' ').trim();
  return s && agency ? `${s} · ${agency}` : s || agency;
}

const APP_BAR_TITLE = 'react-admin-title';

/**
 * Keeps the tab's title and the page's single h1 in step with the open screen, in one place for every screen:
 * - The screen's name is react-admin's title in the app bar (set by <Title>, e.g. a list's name or the record's
 *   name), or else the page's own h1 (PageHeader). document.title becomes "<screen> · <agency>".
 * - The app bar's title is the page's h1 (role="heading" aria-level=1) only when the page has no h1 of its own,
 *   so every screen has exactly one h1 and the app bar is never an empty heading.
 * Screens render asynchronously (records load, titles arrive through portals), so a MutationObserver follows
 * the DOM rather than each screen reporting its title.
 */
export function usePageTitle(agency: string) {
  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      const bar = document.getElementById(APP_BAR_TITLE);
      const pageH1 = document.querySelector('#main-content h1');
      const barText = bar?.textContent?.trim() ?? '';
      if (bar) {
        const promote = !pageH1 && barText !== '';
        if (promote && bar.getAttribute('aria-level') !== '1') {
          bar.setAttribute('role', 'heading');
          bar.setAttribute('aria-level', '1');
        } else if (!promote && bar.hasAttribute('role')) {
          bar.removeAttribute('role');
          bar.removeAttribute('aria-level');
        }
      }
      const title = documentTitle(barText || pageH1?.textContent || '', agency);
      if (title && document.title !== title) document.title = title;
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    update();
    const observer = new MutationObserver(schedule);
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    return () => {
      observer.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [agency]);
}
