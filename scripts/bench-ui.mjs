#!/usr/bin/env node
// UI responsiveness with big profiles (see scripts/bench/ui.mjs, and scripts/bench/redraw.mjs for
// --redraw); `npm run bench` runs both as part of the whole benchmark. Prints a table and writes JSON.
//   node scripts/bench-ui.mjs [--panes 4] [--nodes 300000] [--repeat 5] [--json out.json] [--port N]
//                             [--only zoom,search,hover] [--profile out.cpuprofile]   (a CPU profile of the page's thread from navigation on)
//   node scripts/bench-ui.mjs --redraw [--panes 4] [--samples 10000000] [--repeat 10] [--profile out.cpuprofile] [--trace trace.json] [--port N]
//                             (long .cpuprofile captures; --trace: a Chrome performance trace of the interactions)
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { benchRedraw } from './bench/redraw.mjs';
import { benchUi } from './bench/ui.mjs';

const { values } = parseArgs({
  options: {
    panes: { type: 'string', default: '4' },
    nodes: { type: 'string', default: '300000' },
    json: { type: 'string' },
    repeat: { type: 'string', default: '5' },
    profile: { type: 'string' },
    only: { type: 'string' },
    redraw: { type: 'boolean', default: false },
    samples: { type: 'string', default: '10000000' },
    trace: { type: 'string' },
    port: { type: 'string' },
  },
});
if (values.redraw) {
  const samples = Number(values.samples);
  const r = await benchRedraw({
    panes: Number(values.panes),
    samples,
    repeat: Number(values.repeat === '5' ? 10 : values.repeat),
    profile: values.profile,
    trace: values.trace,
    port: values.port ? Number(values.port) : undefined,
  });
  console.log(
    `Flamelens redraws: ${r.panes} panes × ${samples.toLocaleString('en-US')} samples, headless Chromium ${r.chromiumVersion}, 1600×1000`,
  );
  console.log(`first render: ${r.firstRenderMs} ms; boxes drawn per pane: ${r.drawn.join(', ')}`);
  console.log('interaction   median    max   longest task   (all panes drawn and painted; target < 100 ms)');
  for (const x of r.interactions)
    console.log(
      `${x.interaction.padEnd(12)} ${String(Math.round(x.medianMs)).padStart(6)} ms ${String(Math.round(x.maxMs)).padStart(5)} ms ${String(Math.round(x.longestTaskMs)).padStart(8)} ms   ${x.medianMs < 100 ? 'ok' : 'SLOW'}   ${x.times.join(' ')}`,
    );
  if (values.json) writeFileSync(values.json, JSON.stringify(r, null, 2));
  process.exit(0);
}
const panes = Number(values.panes);
const nodes = Number(values.nodes);
const r = await benchUi({
  panes,
  nodes,
  repeat: Number(values.repeat),
  profile: values.profile,
  only: values.only?.split(','),
  port: values.port ? Number(values.port) : undefined,
});

console.log(
  `Flamelens UI benchmark: ${panes} panes × ${nodes.toLocaleString('en-US')}-node profiles, headless Chromium ${r.chromiumVersion}, 1600×1000`,
);
console.log(
  `first render (load, parse, draw all panes): ${r.firstRenderMs} ms (import: the last profile in the window ${r.importMs} ms after navigation; draw: every pane drawn ${r.drawMs} ms later; CPU of the server and browser meanwhile ${r.firstRenderCpuMs} ms); the command reading the same files at once: ${r.commandMs} ms; boxes drawn per pane: ${r.drawn.join(', ')}`,
);
console.log('interaction   median    max   view trees     draw   (all panes; target < 100 ms)');
for (const x of r.interactions)
  console.log(
    `${x.interaction.padEnd(12)} ${String(Math.round(x.medianMs)).padStart(6)} ms ${String(Math.round(x.maxMs)).padStart(5)} ms ${String(Math.round(x.viewTreeMs)).padStart(7)} ms ${String(Math.round(x.drawMs)).padStart(6)} ms   ${x.medianMs < 100 ? 'ok' : 'SLOW'}`,
  );
if (values.json) writeFileSync(values.json, JSON.stringify(r, null, 2));
