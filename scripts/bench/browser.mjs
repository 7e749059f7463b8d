// The browser and the app's server that the UI benchmarks drive: Debian's Chromium, the built
// app served by `flamelens open --no-browser`, and the long tasks a page records.
import { spawn } from 'node:child_process';

const ROOT = new URL('../../', import.meta.url);

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Makes `page` keep every long task of its window in `window.longTasks` ({start, duration}), from its first script on. */
export function recordLongTasks(page) {
  return page.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
}

/** The secret of the server's address (see node/server/serve.ts), fixed so that the page can be opened. */
export const SECRET = `bench-${Math.random().toString(36).slice(2)}-${Date.now()}`;

/**
 * Starts the local server on the files with `secret` in its address (see node/server/serve.ts);
 * resolves with the child once it prints the address.
 */
export function serve(files, port, secret = SECRET) {
  const server = spawn(process.execPath, ['bin/flamelens.mjs', 'open', '--no-browser', '--port', String(port), ...files], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, FLAMELENS_SERVER_SECRET: secret },
  });
  return new Promise((res, rej) => {
    server.on('exit', (code) => rej(new Error(`flamelens open exited with ${code}`)));
    server.stdout.on('data', (d) => String(d).includes('127.0.0.1') && res(server));
  });
}
