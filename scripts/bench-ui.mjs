#!/usr/bin/env node
// UI responsiveness with big profiles (see scripts/bench/ui.mjs); `npm run bench` runs it as part
// of the whole benchmark. Prints a table and writes JSON.
//   node scripts/bench-ui.mjs [--panes 4] [--nodes 300000] [--repeat 5] [--json out.json]
//                             [--only zoom,search,hover] [--profile out.cpuprofile]   (a CPU profile of the page over the interactions)
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { benchUi } from './bench/ui.mjs';

const { values } = parseArgs({
  options: {
    panes: { type: 'string', default: '4' },
    nodes: { type: 'string', default: '300000' },
    json: { type: 'string' },
    repeat: { type: 'string', default: '5' },
    profile: { type: 'string' },
    only: { type: 'string' },
  },
});
const panes = Number(values.panes);
const nodes = Number(values.nodes);
const r = await benchUi({ panes, nodes, repeat: Number(values.repeat), profile: values.profile, only: values.only?.split(',') });

console.log(
  `Flamelens UI benchmark: ${panes} panes × ${nodes.toLocaleString('en-US')}-node profiles, headless Chromium ${r.chromiumVersion}, 1600×1000`,
);
console.log(`first render (load, parse, draw all panes): ${r.firstRenderMs} ms; boxes drawn per pane: ${r.drawn.join(', ')}`);
console.log('interaction   median    max   view trees  d3 draw   (all panes; target < 100 ms)');
for (const x of r.interactions)
  console.log(
    `${x.interaction.padEnd(12)} ${String(Math.round(x.medianMs)).padStart(6)} ms ${String(Math.round(x.maxMs)).padStart(5)} ms ${String(Math.round(x.viewTreeMs)).padStart(7)} ms ${String(Math.round(x.drawMs)).padStart(6)} ms   ${x.medianMs < 100 ? 'ok' : 'SLOW'}`,
  );
if (values.json) writeFileSync(values.json, JSON.stringify(r, null, 2));
