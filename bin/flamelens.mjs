#!/usr/bin/env node
// The `flamelens` command: runs the bundled command line (built by `npm run build`).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const entry = fileURLToPath(new URL('../out/cli/flamelens.js', import.meta.url));
if (!existsSync(entry)) {
  console.error('flamelens: the command line is not built yet; run `npm run build` in the Flamelens folder first.');
  process.exit(1);
}
const cli = await import(pathToFileURL(entry).href);
cli.run();
