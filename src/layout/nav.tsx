import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import {
  Box,
  Collapse,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  ListSubheader,
  Tooltip,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useEffect, useId, type ReactNode } from 'react';
import { useSidebarState, useStore, useTranslate } from 'react-admin';
import { Link, matchPath, useLocation } from 'react-router';

/** Whether the current path is one of `patterns` (each also matches its sub-paths). */
export function useIsActive(patterns: string[]) {
  const { pathname } = useLocation();
  return patterns.some((p) => matchPath({ path: p, end: false }, pathname));
}

export interface NavItemProps {
  to: string;
  /** Translation key of the entry's text (also its accessible name). */
  label: string;
  icon: ReactNode;
  /** Paths that make this entry the active one; defaults to `to`. */
  activeOn?: string[];
  nested?: boolean;
  /** Extra content after the text, e.g. a badge. */
  secondary?: ReactNode;
  describedBy?: string;
}

/** A sidebar link: highlighted (and aria-current="page") when its screen is open. */
export function NavItem({ to, label, icon, activeOn, nested, secondary, describedBy }: NavItemProps) {
  const translate = useTranslate();
  const [open, setOpen] = useSidebarState();
  // As react-admin's own menu does: on small screens the sidebar covers the page, so it closes once an entry is chosen.
  const isSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  const active = useIsActive(activeOn ?? [to]);
  const text = translate(label);
  const button = (
    <ListItemButton
      component={Link}
      to={to}
      onClick={() => {
        if (isSmall) setOpen(false);
      }}
      selected={active}
      aria-current={active ? 'page' : undefined}
      aria-describedby={describedBy}
      dense
      sx={{
        pl: nested && open ? 4 : 2,
        borderRadius: 1,
        mx: 0.5,
        '&.Mui-selected': {
          bgcolor: 'primary.main',
          color: 'primary.contrastText',
          '& .MuiListItemIcon-root': { color: 'inherit' },
        },
        '&.Mui-selected:hover': { bgcolor: 'primary.dark' },
      }}
    >
      <ListItemIcon sx={{ minWidth: 36 }}>{icon}</ListItemIcon>
      <ListItemText primary={text} sx={{ whiteSpace: 'nowrap' }} />
      {open && secondary}
    </ListItemButton>
  );
  // Each entry is a list item of the sidebar's list (screen readers announce "list, 12 items").
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      {open ? (
        button
      ) : (
        // describeChild: the entry keeps the name its text gives it (there, clipped), as when the menu is open. As a
        // label, the tooltip's text would leave out the unread count the badge shows, which axe flags.
        <Tooltip title={text} placement="right" describeChild>
          {button}
        </Tooltip>
      )}
    </ListItem>
  );
}

export interface NavGroupProps {
  /** Store key part, e.g. "client". */
  name: string;
  label: string;
  icon: ReactNode;
  /** Paths of the group's entries: the group opens when one of them is active. */
  activeOn: string[];
  children: ReactNode;
}

/** A collapsible sidebar group; open by default, its state remembered per user. */
export function NavGroup({ name, label, icon, activeOn, children }: NavGroupProps) {
  const translate = useTranslate();
  const [sidebarOpen] = useSidebarState();
  const [expanded, setExpanded] = useStore(`sidebar.group.${name}`, true);
  const active = useIsActive(activeOn);
  // Opening one of its screens (from a link elsewhere) opens the group; the user can still close it.
  useEffect(() => {
    if (active) setExpanded(true);
  }, [active, setExpanded]);
  const open = expanded;
  const id = useId();
  const text = translate(label);
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      <ListItemButton
        dense
        onClick={() => setExpanded(!open)}
        aria-expanded={open}
        aria-controls={id}
        sx={{ borderRadius: 1, mx: 0.5, fontWeight: active ? 600 : undefined }}
      >
        <ListItemIcon sx={{ minWidth: 36, color: active ? 'primary.main' : undefined }}>{icon}</ListItemIcon>
        <ListItemText primary={text} sx={{ whiteSpace: 'nowrap' }} />
        {sidebarOpen && (open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />)}
      </ListItemButton>
      <Collapse in={open} timeout="auto" unmountOnExit={false}>
        <List id={id} disablePadding aria-label={text}>
          {children}
        </List>
      </Collapse>
    </ListItem>
  );
}

/** A heading inside the sidebar ("Support"). */
export function NavHeading({ label }: { label: string }) {
  const translate = useTranslate();
  const [open] = useSidebarState();
  if (!open) return null;
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      <ListSubheader
        component="h2"
        disableSticky
        sx={{
          lineHeight: '32px',
          mt: 1,
          bgcolor: 'transparent',
          textTransform: 'uppercase',
          fontSize: 12,
          letterSpacing: 0.6,
        }}
      >
        {translate(label)}
      </ListSubheader>
    </ListItem>
  );
}

/** The sidebar's <nav>: as wide as react-admin's sidebar, open or closed, and scrollable. */
export function SidebarNav({ label, children }: { label: string; children: ReactNode }) {
  const translate = useTranslate();
  const [open] = useSidebarState();
  return (
    <Box
      component="nav"
      aria-label={translate(label)}
      sx={(theme: any) => ({
        pt: 1,
        pb: 2,
        width: open ? (theme.sidebar?.width ?? 240) : (theme.sidebar?.closedWidth ?? 55),
        transition: theme.transitions.create('width', {
          easing: theme.transitions.easing.sharp,
          duration: theme.transitions.duration.leavingScreen,
        }),
      })}
    >
      <List disablePadding dense>
        {children}
      </List>
    </Box>
  );
}
