import { useMediaQuery, type Theme } from '@mui/material';
import { useLayoutEffect, useRef } from 'react';
import { Sidebar, useSidebarState, type SidebarProps } from 'react-admin';

/**
 * react-admin's sidebar, closed when the window narrows to a phone's width (a tablet turned, a window dragged
 * narrower). Beside the page on a wider screen, the menu becomes a drawer over the page on a phone, hiding the page
 * from sight and from screen readers; react-admin keeps the open state across the change, so the page being read
 * would vanish under a menu nobody opened. The render that narrows already draws the drawer closed (opening it and
 * closing it at once left the page marked aria-hidden), and the stored state follows.
 */
export function PanelSidebar(props: SidebarProps) {
  const narrow = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const [open, setOpen] = useSidebarState();
  const wasNarrow = useRef(narrow);
  const narrowing = narrow && !wasNarrow.current;
  useLayoutEffect(() => {
    if (narrow && !wasNarrow.current && open) setOpen(false);
    wasNarrow.current = narrow;
  }, [narrow, open, setOpen]);
  return <Sidebar {...props} {...(narrowing ? { open: false } : {})} />;
}
