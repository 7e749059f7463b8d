import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

/**
 * One build for the three Electron programs: main (ESM), preload (CommonJS — sandboxed preloads
 * cannot be ES modules) and the renderer, which is also served as a plain web page where no
 * Electron binary exists. The `flamelens` command line is built by vite.cli.config.ts.
 */
const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      lib: { entry: resolve('electron/main/index.ts'), formats: ['es'], fileName: () => 'index.js' },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      lib: { entry: resolve('electron/preload/index.ts'), formats: ['cjs'], fileName: () => 'index.cjs' },
    },
  },
  renderer: {
    root: 'renderer',
    base: './',
    plugins: [react()],
    // the version the About box shows
    define: { __FLAMELENS_VERSION__: JSON.stringify(version) },
    worker: { format: 'es' },
    // (the statistics of repeated runs load @stdlib code that would otherwise try an eval at start)
    resolve: { alias: { '@stdlib/assert-has-generator-support': resolve('renderer/vendor/has-generator-support.cjs') } },
    build: {
      outDir: resolve('out/renderer'),
      // FLAMELENS_NO_MINIFY=1 keeps function names readable in CPU profiles (bench-ui --profile).
      minify: process.env.FLAMELENS_NO_MINIFY ? false : 'oxc',
      rollupOptions: { input: resolve('renderer/index.html') },
    },
  },
});
