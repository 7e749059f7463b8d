import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/**
 * The `flamelens` command line and the local server, bundled for plain Node (no Electron), and
 * the entry of the server's parse threads (node/server/parse-pool.ts).
 */
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __FLAMELENS_VERSION__: JSON.stringify(pkg.version) },
  build: {
    outDir: 'out/cli',
    emptyOutDir: true,
    target: 'node22',
    minify: false,
    sourcemap: true,
    ssr: true,
    lib: {
      entry: { flamelens: resolve('node/cli/index.ts'), 'parse-thread': resolve('node/server/parse-thread.ts') },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
    rollupOptions: {
      // autocannon (record's load) runs workers from its own files: loaded from node_modules
      external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`), 'autocannon'],
    },
  },
  ssr: { noExternal: true },
});
