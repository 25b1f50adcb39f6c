import { defaultTheme, type RaThemeOptions } from 'react-admin';
import type { Theme } from '@mui/material/styles';
import { palette } from './palette';

/** Hides content visually while screen readers still read it. */
export const visuallyHidden = {
  position: 'absolute',
  // Pixels spelled out: in `sx` a bare 1 means 100%, and a full-width hidden text widened a phone's page.
  width: '1px',
  height: '1px',
  padding: 0,
  margin: '-1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: { ...palette, background: { default: '#f4f6f8' } },
  shape: { borderRadius: 8 },
  sidebar: { width: 248, closedWidth: 56 },
  typography: {
    fontFamily: 'Roboto, "Segoe UI", "Helvetica Neue", Arial, sans-serif',
  },
  components: {
    ...defaultTheme.components,
    // react-admin's loading indicator (top bar) and every spinner: a progress bar needs a name for screen readers.
    MuiCircularProgress: { defaultProps: { 'aria-label': 'Loading' } as object },
    // A read-only field's helper says why it cannot be changed: it must stay readable (WCAG AA contrast), unlike
    // MUI's faded disabled grey (2.7:1).
    MuiFormHelperText: {
      styleOverrides: {
        root: ({ theme }: { theme: Theme }) => ({ '&.Mui-disabled': { color: theme.palette.text.secondary } }),
      },
    },
    RaLayout: {
      styleOverrides: {
        root: {
          // minWidth 0: a wide table scrolls inside its card instead of widening the whole page (phones). The
          // root too: react-admin sizes it to fit its content, which a 25-column table would stretch past the screen.
          minWidth: 0,
          '& .RaLayout-content': { padding: 24, minWidth: 0 },
          '@media (max-width: 599.95px)': { '& .RaLayout-content': { padding: 8 } },
        },
      },
    },
    RaList: {
      styleOverrides: {
        root: {
          '& .RaList-main': { minWidth: 0 },
          '& .RaList-content': { overflowX: 'auto' },
        },
      },
    },
    // A checkbox's name belongs on its <input>, the element that takes focus. react-admin's row and "select all"
    // boxes pass aria-label to MUI's Checkbox, which puts it on the wrapping <span> (a prohibited attribute there),
    // leaving the input unnamed. Moved here once for every checkbox.
    MuiCheckbox: {
      defaultProps: {
        slotProps: {
          root: () => ({ 'aria-label': undefined }),
          input: (ownerState: { 'aria-label'?: string }) => ({ 'aria-label': ownerState['aria-label'] }),
        },
      },
    },
    // react-admin's form toolbar is grey 300, on which the primary Cancel button reads at 4.35:1; grey 100 gives 5.3:1.
    RaToolbar: { styleOverrides: { root: { backgroundColor: '#f5f5f5' } } },
    // Toolbars wrap onto a second line rather than pushing buttons off a narrow screen.
    RaTopToolbar: { styleOverrides: { root: { flexWrap: 'wrap', whiteSpace: 'normal' } } },
    RaListToolbar: { styleOverrides: { root: { flexWrap: 'wrap' } } },
    // react-admin dims these pages' text to half opacity, below the WCAG AA contrast ratio.
    RaAccessDenied: { styleOverrides: { root: { '& .RaAccessDenied-message': { opacity: 1 } } } },
    RaAuthenticationError: { styleOverrides: { root: { '& .RaAuthenticationError-message': { opacity: 1 } } } },
  },
};
