// UI responsiveness with big profiles: opens N panes of synthetic profiles of M call-tree nodes
// each in headless Chromium (served by `flamelens open --no-browser`, the built app) and times a
// zoom (click), a reset (Esc), a search (typed, then Enter) and a hover until every pane has drawn
// the change and the frame after it has been painted (see `timeInPage` in redraw.mjs), with the
// User Timing entries the renderer writes (`flamelens:view-tree`, `flamelens:draw`) summed per
// interaction.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { timeInPage } from './redraw.mjs';
import { CHROMIUM, SECRET, serve } from './browser.mjs';
import { syntheticFolded } from './synthetic.mjs';

const ROOT = new URL('../../', import.meta.url);
import { CHROMIUM_FLAGS } from '../chromium-flags.mjs';

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * CPU time (ms, user and system) so far of every process under this one: the app's server and
 * the browser's processes (Linux; 0 elsewhere). On a loaded machine the wall time of a first
 * render is mostly waiting for a core; this is the work it took.
 */
function descendantsCpuMs() {
  const stats = new Map();
  let dirs = [];
  try {
    dirs = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return 0;
  }
  for (const d of dirs) {
    try {
      const st = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(d), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // gone meanwhile
    }
  }
  let ticks = 0;
  for (const [pid, st] of stats) {
    let a = st.ppid;
    for (let i = 0; i < 8 && a > 1 && a !== process.pid; i++) a = stats.get(a)?.ppid ?? 0;
    if (a === process.pid && pid !== process.pid) ticks += st.ticks;
  }
  return ticks * 10;
}

/**
 * Makes `page` note, in `window.importsDone`, when each import worker's profile reaches the
 * window (ms after navigation): its `done` message, seen before the app's own handler sees it.
 */
function recordImportsDone(page) {
  return page.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.importsDone = [];
    const Base = w.Worker;
    w.Worker = class extends Base {
      constructor(...args) {
        super(...args);
        this.addEventListener('message', (e) => {
          if (e.data && e.data.type === 'done') w.importsDone.push(performance.now());
        });
      }
    };
  });
}

/**
 * The machine's own pace for a first render: ms until `flamelens info` has read every one of
 * `files` when they are all started at once (a process each), the best of `repeat`. The app
 * reads them the same way, in the server's threads, so its first render cannot come sooner.
 */
export async function commandAllAtOnceMs(files, repeat = 3) {
  const times = [];
  for (let r = 0; r < repeat; r++) {
    const t0 = performance.now();
    await Promise.all(
      files.map(
        (f) =>
          new Promise((resolve, reject) => {
            const child = spawn(process.execPath, ['bin/flamelens.mjs', 'info', f], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
            let err = '';
            child.stderr.on('data', (d) => (err += d));
            child.on('error', reject);
            child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`flamelens info ${f} failed (${code}): ${err}`))));
          }),
      ),
    );
    times.push(performance.now() - t0);
  }
  return Math.round(Math.min(...times));
}

/**
 * Returns { panes, nodes, firstRenderMs, firstRenderCpuMs, commandMs, importMs, drawMs, drawn,
 * interactions: [{ interaction, medianMs, maxMs, viewTreeMs, drawMs }] }: first render is split
 * into the import (navigation until the last profile reaches the window) and the draw (from then
 * until every pane has drawn); its CPU time is that of the server's and the browser's processes
 * meanwhile; `commandMs` is the command reading the same files at once (`commandAllAtOnceMs`).
 * `files` may be given (already written folded files), else they are made.
 */
export async function benchUi({ panes, nodes, repeat = 5, files, profile, only, port = 4700 + Math.floor(Math.random() * 200) }) {
  const dir = mkdtempSync(join(tmpdir(), 'flamelens-bench-ui-'));
  let server;
  let browser;
  try {
    files ??= Array.from({ length: panes }, (_, i) => {
      const f = join(dir, `run${i + 1}.folded`);
      writeFileSync(f, syntheticFolded(nodes, i + 1));
      return f;
    });
    const commandMs = await commandAllAtOnceMs(files);
    server = await serve(files, port);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: CHROMIUM_FLAGS,
    });
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    await recordImportsDone(page);
    // A V8 CPU profile of the window's thread from navigation on (first render, then every
    // interaction), for finding where the time goes.
    const cdp = profile ? await page.context().newCDPSession(page) : undefined;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const cpu0 = descendantsCpuMs();
    const t0 = Date.now();
    await page.goto(`http://127.0.0.1:${port}/${SECRET}/`);
    const drawnAt = await page.waitForFunction(
      (n) => [...document.querySelectorAll('.pane-chart')].filter((c) => c.querySelector('g.frame')).length === n && performance.now(),
      panes,
      { timeout: 300_000 },
    );
    const firstRenderMs = Date.now() - t0;
    const firstRenderCpuMs = descendantsCpuMs() - cpu0;
    const doneAt = await page.evaluate(() => /** @type {any} */ (window).importsDone);
    const importMs = Math.round(Math.max(...doneAt));
    const drawMs = Math.round((await drawnAt.jsonValue()) - importMs);
    const drawn = await page.evaluate(() => [...document.querySelectorAll('.pane-chart')].map((c) => c.querySelectorAll('g.frame').length));

    /** Runs `action` in the page; ms until every pane has drawn (a hover draws nothing) and painted. */
    const time = (action, waitForDraws = true) => page.evaluate(timeInPage, { src: action, panes, waitForDraws });

    const results = { zoom: [], reset: [], search: [], hover: [] };
    const on = (what) => !only || only.includes(what);
    const hoverPane = panes > 1 ? 1 : 0;
    for (let i = 0; i < repeat; i++) {
      // zoom: click one of the widest non-root frames of the first pane
      if (on('zoom'))
        results.zoom.push(
          await time(`const gs=[...document.querySelectorAll('.pane-chart')[0].querySelectorAll('g.frame')].filter(g=>g.getAttribute('name')&&!g.getAttribute('name').startsWith('run'));
          gs.sort((a,b)=>Number(b.getAttribute('width'))-Number(a.getAttribute('width')));
          gs[${1 + i}].dispatchEvent(new MouseEvent('click',{bubbles:true}));`),
        );
      if (on('reset') || on('zoom')) results.reset.push(await time(`window.dispatchEvent(new KeyboardEvent('keydown',{key:'Escape'}))`));
      // typed, then Enter (which runs the search without waiting for typing to pause)
      const q = ['f', 'fn', 'fn1', 'fn12', 'fn123'][i % 5];
      if (on('search'))
        results.search.push(
          await time(
            `const el=document.querySelector('input[type=search]'); const set=Object.getOwnPropertyDescriptor(HTMLInputElement.prototype,'value').set; set.call(el,'${q}'); el.dispatchEvent(new Event('input',{bubbles:true})); el.dispatchEvent(new KeyboardEvent('keydown',{key:'Enter',bubbles:true}));`,
          ),
        );
      if (on('hover'))
        results.hover.push(
          await time(
            `const g=[...document.querySelectorAll('.pane-chart')[${hoverPane}].querySelectorAll('g.frame')][${10 + i}]; const r=g.getBoundingClientRect(); g.querySelector('rect').dispatchEvent(new MouseEvent('mousemove',{bubbles:true,clientX:r.x+2,clientY:r.y+2}));`,
            false,
          ),
        );
    }
    if (cdp) writeFileSync(profile, JSON.stringify((await cdp.send('Profiler.stop')).profile));
    const interactions = Object.entries(results)
      .filter(([, v]) => v.length > 0)
      .map(([interaction, v]) => ({
        interaction,
        medianMs: median(v.map((x) => x.total)),
        maxMs: Math.max(...v.map((x) => x.total)),
        viewTreeMs: median(v.map((x) => x.view)),
        drawMs: median(v.map((x) => x.draw)),
      }));
    const chromiumVersion = browser.version();
    return { panes, nodes, firstRenderMs, firstRenderCpuMs, commandMs, importMs, drawMs, drawn, interactions, chromiumVersion };
  } finally {
    await browser?.close();
    server?.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

export { CHROMIUM, recordLongTasks, serve } from './browser.mjs';
