// Redraws of a big comparison: N panes of long `.cpuprofile` captures (10 M samples each by
// default, ~100 MB; baseline and dd-trace runs alternating) opened with `flamelens open` in
// headless Chromium. Times a click-zoom, Esc (reset zoom) and a search (typed, then Enter, which
// runs it without waiting for typing to pause) from the event until every pane has drawn the
// change and the frame after it has been painted; a keystroke in the search box until the
// typed text is painted; the time-order view's first draw, a range picked on it and a wheel zoom
// (time-order.mjs). Also the longest main-thread task within each interaction (Long Tasks
// API) and the renderer's own User Timing entries (`flamelens:view-tree`, `flamelens:draw`).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { generateLongCpuprofile } from './generate.mjs';
import { CHROMIUM, recordLongTasks, serve } from './browser.mjs';
import { TIME_ORDER_ACTIONS, timeOrderRounds } from './time-order.mjs';

const SECRET = `bench-redraw-${Math.random().toString(36).slice(2)}-${Date.now()}`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Queries typed by the search interaction, in turn: each matches frames of the sample runs. */
const QUERIES = ['dd-trace', 'fastify', 'emit', 'node:internal', 'parse', 'Reply', 'http', 'trace', 'on', 'write'];

/**
 * In the page: runs `src`, then waits (checking once per animation frame) until every one of
 * `panes` panes has reported a draw (`flamelens:draw`) since, and one more frame so that the
 * drawn frame has been painted. Returns ms, the longest task in that time and the User Timing sums.
 */
export async function timeInPage({ src, panes, waitForDraws, label = 'interaction', until }) {
  performance.clearMeasures();
  const w = /** @type {any} */ (window);
  // (marks in a trace: where each interaction starts and ends)
  performance.mark(`bench:${label}`);
  const t = performance.now();
  new Function(src)();
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const deadline = t + 30_000;
  if (waitForDraws)
    while (performance.getEntriesByName('flamelens:draw').length < panes) {
      if (performance.now() > deadline)
        throw new Error(`only ${performance.getEntriesByName('flamelens:draw').length} of ${panes} panes drew`);
      await frame();
    }
  // a view that is not drawn in panes (the sandwich): until an element it shows is there
  if (until)
    while (!document.querySelector(until)) {
      if (performance.now() > deadline) throw new Error(`${until} did not appear`);
      await frame();
    }
  await frame();
  await frame();
  const end = performance.now();
  performance.mark(`bench:${label}:end`);
  // long tasks are reported a little after they end
  await new Promise((r) => setTimeout(r, 50));
  const sum = (name) => performance.getEntriesByName(name).reduce((s, e) => s + e.duration, 0);
  const tasks = (w.longTasks ?? []).filter((x) => x.start + x.duration > t && x.start < end).map((x) => x.duration);
  return { total: end - t, longestTask: Math.max(0, ...tasks), view: sum('flamelens:view-tree'), draw: sum('flamelens:draw') };
}

/** The scripts the interactions run in the page. */
const ACTIONS = {
  // a click on the i-th widest frame of the first pane below its root (not the ancestors row)
  zoom: (i) => `const gs=[...document.querySelectorAll('.pane-chart')[0].querySelectorAll('g.frame:not(.ancestors)')]
      .filter((g)=>g.__data__ && g.__data__.depth>=1);
    gs.sort((a,b)=>b.querySelector('rect').width.baseVal.value-a.querySelector('rect').width.baseVal.value);
    gs[${1 + i}].querySelector('rect').dispatchEvent(new MouseEvent('click',{bubbles:true}));`,
  reset: () => `window.dispatchEvent(new KeyboardEvent('keydown',{key:'Escape'}))`,
  // types the query into the box (React's onChange), then presses Enter
  search: (i) => `const el=document.querySelector('input[type=search]');
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype,'value').set.call(el, ${JSON.stringify(QUERIES[i % QUERIES.length])});
    el.dispatchEvent(new Event('input',{bubbles:true}));
    el.dispatchEvent(new KeyboardEvent('keydown',{key:'Enter',bubbles:true}));`,
  // the sandwich of the i-th widest frame of the first pane: the pointer over it, then S
  sandwich: (i) => `const gs=[...document.querySelectorAll('.pane-chart')[0].querySelectorAll('g.frame:not(.ancestors)')]
      .filter((g)=>g.__data__ && g.__data__.depth>=1);
    gs.sort((a,b)=>b.querySelector('rect').width.baseVal.value-a.querySelector('rect').width.baseVal.value);
    gs[${1 + i}].querySelector('rect').dispatchEvent(new MouseEvent('mousemove',{bubbles:true}));
    window.dispatchEvent(new KeyboardEvent('keydown',{key:'s'}));`,
  // one more character typed: the search runs once typing pauses, this times the keystroke alone
  keystroke: (i) => `const el=document.querySelector('input[type=search]');
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype,'value').set.call(el, el.value + ${JSON.stringify('abcdefghij'[i % 10])});
    el.dispatchEvent(new Event('input',{bubbles:true}));`,
};

/** Makes `panes` long captures of `samples` samples each in `dir`; returns their paths. */
export function redrawInputs(dir, panes, samples) {
  return Array.from({ length: panes }, (_, i) => {
    const run = i % 2 === 0 ? 'baseline' : 'ddtrace';
    const f = join(dir, `${run}-${i + 1}.cpuprofile`);
    generateLongCpuprofile(f, samples, run);
    return f;
  });
}

/**
 * Returns { panes, samples, bytes, firstRenderMs, drawn, interactions: [{ interaction, medianMs,
 * maxMs, longestTaskMs, viewTreeMs, drawMs, times }] }. `files` may be given, else they are made.
 * `trace`: a path to write a Chrome performance trace of the interactions to; `profile`: a path
 * for a V8 CPU profile of the page over them; `port`: the local server's (else one at random).
 */
export async function benchRedraw({ panes = 4, samples = 10_000_000, repeat = 10, files, trace, profile, port }) {
  const dir = mkdtempSync(join(tmpdir(), 'flamelens-bench-redraw-'));
  port ??= 4700 + Math.floor(Math.random() * 200);
  let server;
  let browser;
  try {
    files ??= redrawInputs(dir, panes, samples);
    server = await serve(files, port, SECRET);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    await recordLongTasks(page);
    const t0 = Date.now();
    await page.goto(`http://127.0.0.1:${port}/${SECRET}/`);
    await page.waitForFunction(
      (n) => [...document.querySelectorAll('.pane-chart')].filter((c) => c.querySelector('g.frame')).length === n,
      files.length,
      { timeout: 600_000 },
    );
    const firstRenderMs = Date.now() - t0;
    // the import worker and the first draws settle
    await page.waitForTimeout(3000);
    const drawn = await page.evaluate(() => [...document.querySelectorAll('.pane-chart')].map((c) => c.querySelectorAll('g.frame').length));

    if (trace) await browser.startTracing(page, { path: trace, screenshots: false });
    const cdp = profile ? await page.context().newCDPSession(page) : undefined;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const results = { zoom: [], reset: [], search: [], keystroke: [] };
    const run = (what, i) =>
      page.evaluate(timeInPage, { src: ACTIONS[what](i), panes: files.length, waitForDraws: what !== 'keystroke', label: what });
    for (let i = 0; i < repeat; i++) {
      results.zoom.push(await run('zoom', i));
      results.reset.push(await run('reset', i));
      results.search.push(await run('search', i));
      results.keystroke.push(await run('keystroke', i));
      // let the keystroke's search run (after the typing pause) before the next zoom
      await page.waitForTimeout(400);
    }
    // the time-order view (scripts/bench/time-order.mjs)
    const timed = (what, i) =>
      page.evaluate(timeInPage, {
        src: TIME_ORDER_ACTIONS[what](i),
        panes: files.length,
        // the flamegraphs are already drawn before the first round
        waitForDraws: what !== 'flamegraphs' || i > 0,
        label: what,
      });
    Object.assign(results, await timeOrderRounds(timed, repeat));
    // the sandwich view of a frame, opened from the flamegraphs (untimed way back: key 1)
    results.sandwich = [];
    for (let i = 0; i < repeat; i++) {
      await timed('flamegraphs', 1);
      results.sandwich.push(
        await page.evaluate(timeInPage, {
          src: ACTIONS.sandwich(i),
          panes: files.length,
          waitForDraws: false,
          until: 'table[aria-label^="Callers of"], .sandwich-tree p',
          label: 'sandwich',
        }),
      );
    }
    if (trace) await browser.stopTracing();
    if (cdp) writeFileSync(profile, JSON.stringify((await cdp.send('Profiler.stop')).profile));
    const interactions = Object.entries(results).map(([interaction, v]) => ({
      interaction,
      medianMs: median(v.map((x) => x.total)),
      maxMs: Math.max(...v.map((x) => x.total)),
      longestTaskMs: Math.max(...v.map((x) => x.longestTask)),
      viewTreeMs: median(v.map((x) => x.view)),
      drawMs: median(v.map((x) => x.draw)),
      times: v.map((x) => Math.round(x.total)),
    }));
    return { panes: files.length, samples, firstRenderMs, drawn, interactions, chromiumVersion: browser.version() };
  } finally {
    await browser?.close();
    server?.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
