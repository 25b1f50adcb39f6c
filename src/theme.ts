import { defaultTheme, type RaThemeOptions } from 'react-admin';

export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    primary: { main: '#1565c0' },
    secondary: { main: '#0d47a1' },
    background: { default: '#f4f6f8' },
  },
  shape: { borderRadius: 8 },
  sidebar: { width: 248, closedWidth: 56 },
  typography: {
    fontFamily: 'Roboto, "Segoe UI", "Helvetica Neue", Arial, sans-serif',
  },
  components: {
    ...defaultTheme.components,
    RaLayout: {
      styleOverrides: {
        root: {
          '& .RaLayout-content': { padding: 24 },
        },
      },
    },
  },
};
