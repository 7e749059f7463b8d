// The app path, measured as a person meets it: `flamelens open FILE` (what `npm start -- FILE`
// runs where no Electron binary exists) serves the file, headless Chromium opens the address, and
// the clock runs from navigation until every pane has drawn its flamegraph. Beside it, in the same
// run: `flamelens collapse FILE` (the command line's wall time on the same file), the longest
// main-thread task in the 10 s after the first draw (the page's own PerformanceObserver), and the
// renderer process's peak memory (VmHWM of Chromium's renderer processes, Linux).
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM, recordLongTasks, serve } from './ui.mjs';

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
function browserPid(mark) {
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

/** Wall time of `flamelens collapse FILE` (output discarded), in ms. */
function cliMs(file) {
  const t = performance.now();
  const r = spawnSync(process.execPath, ['bin/flamelens.mjs', 'collapse', file], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`flamelens collapse ${file} failed: ${r.stderr}`);
  return performance.now() - t;
}

/**
 * Returns { navigationMs, cliMs, ratio, longestTaskMs, rendererPeakBytes } (medians of `repeat`
 * alternating runs; the longest task and memory from the slowest-to-draw run's own page).
 */
export async function benchApp({ files, repeat = 3, quietMs = 10_000 }) {
  const port = 4900 + Math.floor(Math.random() * 90);
  const server = await serve(files, port, SECRET);
  const nav = [];
  const cli = [];
  const tasks = [];
  const peaks = [];
  try {
    for (let r = 0; r < repeat; r++) {
      let t = 0;
      for (const f of files) t += cliMs(f);
      cli.push(t);
      // A flag Chromium ignores marks this browser's process, to find its renderers by.
      const mark = `--flamelens-bench-run=${SECRET}-${r}`;
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', mark] });
      try {
        const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
        await recordLongTasks(page);
        const start = performance.now();
        await page.goto(`http://127.0.0.1:${port}/${SECRET}/`);
        const panes = page.getByRole('region', { name: /^Run / });
        for (let i = 0; i < files.length; i++)
          await panes.nth(i).locator('g.frame').first().waitFor({ state: 'attached', timeout: 600_000 });
        const drawnAt = await page.evaluate(
          () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(() => res(performance.now())))),
        );
        nav.push(performance.now() - start);
        await page.waitForTimeout(quietMs);
        const after = await page.evaluate((from) => window.longTasks.filter((x) => x.start >= from).map((x) => x.duration), drawnAt);
        tasks.push(Math.max(0, ...after));
        const pid = browserPid(mark);
        peaks.push(pid ? rendererPeakBytes(pid) : undefined);
      } finally {
        await browser.close();
      }
    }
  } finally {
    server.kill();
  }
  const navigationMs = median(nav);
  const cliMedian = median(cli);
  const knownPeaks = peaks.filter((p) => p !== undefined);
  return {
    navigationMs,
    cliMs: cliMedian,
    ratio: navigationMs / cliMedian,
    longestTaskMs: Math.max(...tasks),
    rendererPeakBytes: knownPeaks.length ? Math.max(...knownPeaks) : undefined,
  };
}
