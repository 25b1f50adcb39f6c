import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiPort = process.env.API_PORT || '8080';

export default defineConfig({
  plugins: [react()],
  publicDir: 'public',
  resolve: {
    // One copy of each: react-admin, MUI and our code must share React, the router, MUI's theme and emotion's cache.
    dedupe: [
      'react',
      'react-dom',
      'react-router',
      'react-router-dom',
      '@mui/material',
      '@emotion/react',
      '@tanstack/react-query',
    ],
  },
  server: {
    proxy: {
      '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
    // Every browser the product supports knows <link rel="modulepreload"> (Safari since 17, Firefox since 115);
    // an older one merely fetches the chunks as they are imported, so the first bundle need not carry a polyfill.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // The libraries in chunks of their own, apart from our code: each is cached across releases that do not
        // upgrade it, and the browser fetches and compiles them in parallel. A group takes the dependencies of
        // what it captures unless an earlier group has them (splitting without them made chunks import each other
        // in a cycle, which broke the app), so React and the router come first: they are the Login page's
        // libraries, and every later group (the signed-in app's MUI, react-admin, date-fns, date pickers, icons) must
        // leave them there, or the Login page would load those groups too (bench/bundle.ts).
        codeSplitting: {
          groups: [
            {
              name: 'vendor-react',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|cookie|set-cookie-parser)[\\/]/,
            },
            {
              name: 'vendor-mui',
              test: /[\\/]node_modules[\\/](@mui[\\/](material|system|utils|styled-engine|private-theming|types|core-downloads-tracker)|@emotion|@popperjs|react-transition-group|stylis|@babel[\\/]runtime|clsx|prop-types|react-is|hoist-non-react-statics)[\\/]/,
            },
            {
              name: 'vendor-react-admin',
              test: /[\\/]node_modules[\\/](react-admin|ra-[a-z0-9-]+|react-hook-form|@tanstack)[\\/]/,
            },
            // date-fns (dates.ts, fields, history) apart from the pickers, which only forms and date filters
            // load (engine/react/LazyPickerInput.tsx); date-fns first, or the pickers' group would take it along.
            { name: 'vendor-date-fns', test: /[\\/]node_modules[\\/](date-fns|@date-fns)[\\/]/ },
            {
              name: 'vendor-date-pickers',
              test: /[\\/]node_modules[\\/](@mui[\\/]x-date-pickers|@mui[\\/]x-internals)[\\/]/,
            },
            { name: 'vendor-icons', test: /[\\/]node_modules[\\/]@mui[\\/]icons-material[\\/]/ },
          ],
        },
      },
    },
  },
});
