// The app path, measured as a person meets it: `flamelens open FILE` (what `npm start -- FILE`
// runs where no Electron binary exists) serves the file, headless Chromium opens the address, and
// the clock runs from navigation until every pane has drawn its flamegraph. Beside it, in the same
// run and alternating with it: `flamelens collapse FILE` (the command line's wall time and peak
// RSS on the same file), the longest main-thread task in the 10 s after the first draw (the
// page's own PerformanceObserver), and the renderer's peak memory: the largest VmHWM (resident
// high-water mark, /proc/<pid>/status, Linux) among the browser's renderer processes, which holds
// the page's main thread and its workers (the import worker runs in the renderer process).
//
// The moment every pane has drawn is taken in the page (`watchDrawn`), not by polling it from
// here: Playwright's waits poll at growing intervals (up to 500 ms apart), which added 0–500 ms to
// each run.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { cpuSince, processCpuMs, treeCpuMs } from './cpu-time.mjs';
import { runWithPeak } from './peak-rss.mjs';
import { CHROMIUM, recordLongTasks, serve } from './ui.mjs';
import { CHROMIUM_FLAGS } from '../chromium-flags.mjs';

const ROOT = new URL('../../', import.meta.url);
const SECRET = `bench-app-${Math.random().toString(36).slice(2)}-${Date.now()}`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Parent pid of a process (Linux), or 0. */
function ppid(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
}

/** The largest VmHWM (bytes) among the renderer processes under `browserPid`, or undefined off Linux. */
function rendererPeakBytes(browserPid) {
  let peak;
  let pids;
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return undefined;
  }
  for (const p of pids) {
    let cmd;
    try {
      cmd = readFileSync(`/proc/${p}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!cmd.includes('--type=renderer')) continue;
    let a = Number(p);
    let under = false;
    for (let i = 0; i < 4 && a > 1; i++) {
      a = ppid(a);
      if (a === browserPid) under = true;
    }
    if (!under) continue;
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
    if (m) peak = Math.max(peak ?? 0, Number(m[1]) * 1024);
  }
  return peak;
}

/** The pid of the browser process launched with `mark` on its command line (Linux), or undefined. */
export function browserPid(mark) {
  try {
    for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      let cmd;
      try {
        cmd = readFileSync(`/proc/${p}/cmdline`, 'utf8');
      } catch {
        continue;
      }
      if (cmd.includes(mark) && !cmd.includes('--type=')) return Number(p);
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** `flamelens collapse FILE` (output discarded): { ms, peakRssBytes } (wall time, the process's high-water mark). */
function cliRun(file) {
  const r = runWithPeak(['bin/flamelens.mjs', 'collapse', file], ROOT);
  if (r.status !== 0) throw new Error(`flamelens collapse ${file} failed: ${r.stderr}`);
  return r;
}

/**
 * Returns { navigationMs, cliMs, ratio, longestTaskMs, rendererPeakBytes, cliPeakRssBytes,
 * cliCpuMs, appCpuMs, runs }: medians of `repeat` alternating runs for the times; for the longest
 * task and both peaks, the largest of the runs. `appCpuMs`: the CPU time each kind of process
 * spent from navigation until drawn (Chromium's browser, renderer, gpu, network and other
 * processes; the server over the whole run), medians by kind; `cliCpuMs`: the command's. `port`: where the app is served (any free port when not given).
 */
export async function benchApp({ files, repeat = 3, quietMs = 10_000, port = 4900 + Math.floor(Math.random() * 90) }) {
  const server = await serve(files, port, SECRET);
  const runs = [];
  try {
    for (let r = 0; r < repeat; r++) {
      const cli = files.map(cliRun);
      const serverBefore = processCpuMs(server.pid);
      const app = await appRun(files, port, `${SECRET}-${r}`, quietMs);
      runs.push({
        cliMs: cli.reduce((s, x) => s + x.ms, 0),
        cliCpuMs: cli.reduce((s, x) => s + (x.cpuMs ?? 0), 0),
        cliPeakRssBytes: Math.max(...cli.map((x) => x.peakRssBytes)),
        ...app,
        // (the server's CPU over the whole run: it serves nothing else)
        appCpuMs: { ...app.appCpuMs, server: processCpuMs(server.pid) - serverBefore },
      });
    }
  } finally {
    server.kill();
  }
  const navigationMs = median(runs.map((x) => x.navigationMs));
  const cliMs = median(runs.map((x) => x.cliMs));
  const peaks = runs.map((x) => x.rendererPeakBytes).filter((p) => p !== undefined);
  const kinds = [...new Set(runs.flatMap((x) => Object.keys(x.appCpuMs)))];
  return {
    navigationMs,
    cliMs,
    cliCpuMs: median(runs.map((x) => x.cliCpuMs)),
    appCpuMs: Object.fromEntries(kinds.map((k) => [k, median(runs.map((x) => x.appCpuMs[k] ?? 0))])),
    ratio: navigationMs / cliMs,
    longestTaskMs: Math.max(...runs.map((x) => x.longestTaskMs)),
    rendererPeakBytes: peaks.length ? Math.max(...peaks) : undefined,
    cliPeakRssBytes: Math.max(...runs.map((x) => x.cliPeakRssBytes)),
    runs,
  };
}

/**
 * Run in the page from its first script: `window.benchDrawn` resolves, once `panes` panes show a
 * flamegraph and the frame after it has been painted, with that moment as { epochMs (ms since
 * 1970), pageMs (the page's own clock) }. A MutationObserver sees the boxes as they are inserted,
 * in the task that inserts them; two animation frames later the frame that shows them is painted.
 */
export function watchDrawn(panes) {
  const w = /** @type {any} */ (window);
  const drawn = () => {
    const regions = document.querySelectorAll('[role="region"][aria-label^="Run "]');
    let n = 0;
    for (const r of regions) if (r.querySelector('g.frame')) n++;
    return n >= panes;
  };
  w.benchDrawn = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!drawn()) return;
      observer.disconnect();
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          const pageMs = performance.now();
          resolve({ epochMs: performance.timeOrigin + pageMs, pageMs });
        }),
      );
    });
    observer.observe(document, { childList: true, subtree: true });
  });
}

/**
 * Navigates `page` to `url` and resolves once `panes` panes have drawn (see `watchDrawn`, which
 * must have been added as an init script): { navigationMs (from the call to navigate until the
 * frame with every pane drawn was painted), drawnAt (that moment on the page's clock) }.
 */
export async function timeUntilDrawn(page, url, timeoutMs = 600_000) {
  const start = performance.timeOrigin + performance.now();
  await page.goto(url);
  const drawn = await page.evaluate(
    (ms) => Promise.race([window.benchDrawn, new Promise((_, reject) => setTimeout(() => reject(new Error(`not drawn in ${ms} ms`)), ms))]),
    timeoutMs,
  );
  return { navigationMs: drawn.epochMs - start, drawnAt: drawn.pageMs };
}

/**
 * One app run in a fresh browser with a profile folder of its own, as `npm start` opens one (an
 * off-the-record page would keep IndexedDB in memory, where a big run's recovery copy does not
 * fit): { navigationMs, appCpuMs (by kind of Chromium process), longestTaskMs, rendererPeakBytes }.
 */
async function appRun(files, port, runId, quietMs) {
  // A flag Chromium ignores marks this browser's process, to find its renderers by.
  const mark = `--flamelens-bench-run=${runId}`;
  const profileDir = mkdtempSync(join(tmpdir(), 'flamelens-bench-profile-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    // the project's flags (no network, no first-run pages), as the other benchmarks and the tests use
    args: [...CHROMIUM_FLAGS, mark],
    viewport: { width: 1600, height: 1000 },
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await recordLongTasks(page);
    await page.addInitScript(watchDrawn, files.length);
    const pid = browserPid(mark);
    const cpuBefore = pid ? treeCpuMs(pid) : {};
    const { navigationMs, drawnAt } = await timeUntilDrawn(page, `http://127.0.0.1:${port}/${SECRET}/`);
    const appCpuMs = pid ? cpuSince(cpuBefore, treeCpuMs(pid)) : {};
    await page.waitForTimeout(quietMs);
    const after = await page.evaluate((from) => window.longTasks.filter((x) => x.start >= from).map((x) => x.duration), drawnAt);
    return { navigationMs, appCpuMs, longestTaskMs: Math.max(0, ...after), rendererPeakBytes: pid ? rendererPeakBytes(pid) : undefined };
  } finally {
    await context.close();
    rmSync(profileDir, { recursive: true, force: true });
  }
}
