/**
 * The colours of every screen: both panels (src/theme.ts), the staff page and the signing link's page (their own small
 * themes, without react-admin). Kept apart from src/theme.ts so those pages do not load react-admin for it.
 * Darker than MUI's defaults so that white text on them (chips) and coloured text on white or the form toolbar reach
 * WCAG AA contrast (4.5:1): MUI's warning (#ed6c02) gives 3.1:1 and info (#0288d1) 3.9:1 with white.
 */
export const palette = {
  primary: { main: '#1565c0' },
  secondary: { main: '#0d47a1' },
  error: { main: '#c62828' },
  warning: { main: '#b45309' },
  info: { main: '#01579b' },
};
