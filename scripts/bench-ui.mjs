#!/usr/bin/env node
// UI responsiveness with big profiles: opens N panes of synthetic profiles of M call-tree nodes
// each in headless Chromium and times a zoom (click), a search keystroke and a hover until every
// pane has updated (two animation frames after the event). Prints a table and writes JSON.
//   node scripts/bench-ui.mjs [--panes 4] [--nodes 300000] [--json out.json]
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { syntheticFolded } from './bench/synthetic.mjs';

const { values } = parseArgs({ options: { panes: { type: 'string', default: '4' }, nodes: { type: 'string', default: '300000' }, json: { type: 'string' }, repeat: { type: 'string', default: '5' } } });
const panes = Number(values.panes);
const nodes = Number(values.nodes);
const repeat = Number(values.repeat);
const PORT = 4700 + Math.floor(Math.random() * 200);

const dir = mkdtempSync(join(tmpdir(), 'flamelens-bench-'));
const files = Array.from({ length: panes }, (_, i) => {
  const f = join(dir, `run${i + 1}.folded`);
  writeFileSync(f, syntheticFolded(nodes, i + 1));
  return f;
});

const server = spawn(process.execPath, ['bin/flamelens.mjs', 'open', '--no-browser', '--port', String(PORT), ...files], { stdio: ['ignore', 'pipe', 'inherit'] });
await new Promise((res) => server.stdout.on('data', (d) => String(d).includes('127.0.0.1') && res()));

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
const t0 = Date.now();
await page.goto(`http://127.0.0.1:${PORT}/`);
await page.waitForFunction((n) => document.querySelectorAll('.pane-chart svg').length === n, panes, { timeout: 120_000 });
const firstRender = Date.now() - t0;
const drawn = await page.evaluate(() => [...document.querySelectorAll('.pane-chart')].map((c) => c.querySelectorAll('g.frame').length));
const treeNodes = await page.evaluate(() => 0);

/** Runs `action` in the page and returns ms until two animation frames later. */
async function time(action) {
  return page.evaluate(async (src) => {
    performance.clearMeasures();
    const t = performance.now();
    new Function(src)();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const total = performance.now() - t;
    const sum = (name) => performance.getEntriesByName(name).reduce((s, e) => s + e.duration, 0);
    return { total, view: sum('flamelens:view-tree'), draw: sum('flamelens:draw') };
  }, action);
}

function median(xs) {
  xs = xs.map((x) => (typeof x === 'number' ? x : x.total));
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const results = { zoom: [], reset: [], search: [], hover: [] };
for (let i = 0; i < repeat; i++) {
  // zoom: click the widest non-root frame of the first pane
  results.zoom.push(
    await time(`const gs=[...document.querySelectorAll('.pane-chart')[0].querySelectorAll('g.frame')].filter(g=>g.getAttribute('name')&&!g.getAttribute('name').startsWith('run'));
      gs.sort((a,b)=>Number(b.getAttribute('width'))-Number(a.getAttribute('width')));
      gs[${1 + i}].dispatchEvent(new MouseEvent('click',{bubbles:true}));`),
  );
  results.reset.push(await time(`window.dispatchEvent(new KeyboardEvent('keydown',{key:'Escape'}))`));
  const q = ['f', 'fn', 'fn1', 'fn12', 'fn123'][i % 5];
  results.search.push(
    await time(`const el=document.querySelector('input[type=search]'); const set=Object.getOwnPropertyDescriptor(HTMLInputElement.prototype,'value').set; set.call(el,'${q}'); el.dispatchEvent(new Event('input',{bubbles:true}));`),
  );
  results.hover.push(
    await time(`const g=[...document.querySelectorAll('.pane-chart')[1].querySelectorAll('g.frame')][${10 + i}]; const r=g.getBoundingClientRect(); g.querySelector('rect').dispatchEvent(new MouseEvent('mousemove',{bubbles:true,clientX:r.x+2,clientY:r.y+2}));`),
  );
}
await browser.close();
server.kill();

const part = (v, k) => Math.round(median(v.map((x) => x[k])));
const table = Object.entries(results).map(([k, v]) => ({
  interaction: k,
  medianMs: Math.round(median(v)),
  maxMs: Math.round(Math.max(...v.map((x) => x.total))),
  viewTreeMs: part(v, 'view'),
  drawMs: part(v, 'draw'),
}));
console.log(`Flamelens UI benchmark: ${panes} panes × ${nodes.toLocaleString('en-US')}-node profiles, headless Chromium, 1600×1000`);
console.log(`first render (load, parse, draw all panes): ${firstRender} ms; boxes drawn per pane: ${drawn.join(', ')}`);
console.log('interaction   median    max   view trees  d3 draw   (all panes; target < 100 ms)');
for (const r of table)
  console.log(
    `${r.interaction.padEnd(12)} ${String(r.medianMs).padStart(6)} ms ${String(r.maxMs).padStart(5)} ms ${String(r.viewTreeMs).padStart(7)} ms ${String(r.drawMs).padStart(6)} ms   ${r.medianMs < 100 ? 'ok' : 'SLOW'}`,
  );
void treeNodes;
if (values.json) writeFileSync(values.json, JSON.stringify({ panes, nodes, firstRenderMs: firstRender, drawn, results: table }, null, 2));
