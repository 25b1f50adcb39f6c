import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiPort = process.env.API_PORT || '8080';

export default defineConfig({
  plugins: [react()],
  publicDir: 'public',
  resolve: {
    // One copy of each: react-admin, MUI and our code must share React, the router, MUI's theme and emotion's cache.
    dedupe: ['react', 'react-dom', 'react-router', 'react-router-dom', '@mui/material', '@emotion/react', '@tanstack/react-query'],
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
  },
});
