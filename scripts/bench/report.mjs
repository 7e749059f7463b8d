// The text `npm run bench` prints: a table per part, then the targets.
import { appTable } from './app-report.mjs';
import { heapTable } from './heap.mjs';

const MB = 1e6;

/** The benchmark's figures as text; `repeats` says how many runs each import took its best of. */
export function benchText(results, { repeats, appRepeat }) {
  const pad = (s, n) => String(s).padEnd(n);
  const lpad = (s, n) => String(s).padStart(n);
  const m = results.machine;
  const out = [];
  out.push(`Flamelens benchmark, ${results.date.slice(0, 10)}`);
  out.push(`machine: ${m.cores} cores (${m.cpu}), ${m.memoryGiB} GiB RAM, ${m.os}, Node ${m.node}, ${m.chromium}`);
  out.push(`load average (1 min) at start ${results.loadBefore.toFixed(1)}, at end ${results.loadAfter.toFixed(1)}`);
  if (results.import.length > 0) {
    out.push('');
    out.push('Import (MB = 10^6 bytes; limit measured in this run: JSON.parse of the same text for JSON, a bare line split for text)');
    out.push(
      `${pad('format', 12)}${lpad('size', 9)}${lpad('import', 12)}${lpad('limit', 12)}  ${pad('(of)', 11)}${lpad('ratio', 6)}${lpad('peak RSS', 11)}${lpad('× file', 8)}${lpad('tree nodes', 12)}`,
    );
    for (const x of results.import)
      out.push(
        `${pad(x.format, 12)}${lpad(`${Math.round(x.bytes / MB)} MB`, 9)}${lpad(`${x.importMBps.toFixed(0)} MB/s`, 12)}${lpad(`${x.limitMBps.toFixed(0)} MB/s`, 12)}  ${pad(x.limit + (x.limitPieces > 1 ? `×${x.limitPieces}` : ''), 11)}${lpad(x.ratio.toFixed(2), 6)}${lpad(`${Math.round(x.peakRssBytes / MB)} MB`, 11)}${lpad(x.peakPerFile.toFixed(2), 8)}${lpad(x.profile.nodes.toLocaleString('en-US'), 12)}`,
      );
    if (results.import.some((x) => x.limitPieces > 1))
      out.push('  (JSON.parse×N: the file is larger than one V8 string, so JSON.parse ran on N valid pieces of it, ≤ 256 MiB each)');
    out.push(
      `  (import and limit: best of ${repeats} alternating runs, each in its own process; peak RSS: the importing process’s high-water mark)`,
    );
  }
  if (results.diff) {
    const d = results.diff;
    out.push('');
    out.push(
      `Diff: ${d.baselineNodes.toLocaleString('en-US')} × ${d.runNodes.toLocaleString('en-US')} nodes → ${d.mergedNodes.toLocaleString('en-US')} merged: median ${Math.round(d.medianMs)} ms, max ${Math.round(d.maxMs)} ms (3 runs)`,
    );
  }
  for (const u of results.ui) {
    out.push('');
    out.push(
      `UI: ${u.panes} pane(s) × ${u.nodes.toLocaleString('en-US')}-node profiles, headless Chromium, 1600×1000; first render ${u.firstRenderMs} ms (import ${u.importMs} ms, then draw ${u.drawMs} ms; \`flamelens info\` of the same ${u.panes === 1 ? 'file' : `${u.panes} files at once`}: ${u.commandMs} ms)`,
    );
    out.push(`${pad('interaction', 12)}${lpad('median', 9)}${lpad('max', 9)}${lpad('view trees', 12)}${lpad('draw', 10)}`);
    for (const i of u.interactions)
      out.push(
        `${pad(i.interaction, 12)}${lpad(`${Math.round(i.medianMs)} ms`, 9)}${lpad(`${Math.round(i.maxMs)} ms`, 9)}${lpad(`${Math.round(i.viewTreeMs)} ms`, 12)}${lpad(`${Math.round(i.drawMs)} ms`, 10)}`,
      );
  }
  if (results.redraw) {
    const r = results.redraw;
    out.push('');
    out.push(
      `Redraws: ${r.panes} panes × ${r.samples.toLocaleString('en-US')}-sample .cpuprofile runs (${r.drawn.join(', ')} boxes drawn), headless Chromium, 1600×1000; first render ${r.firstRenderMs} ms`,
    );
    out.push(
      `${pad('interaction', 12)}${lpad('median', 9)}${lpad('max', 9)}${lpad('longest task', 14)}${lpad('view trees', 12)}${lpad('draw', 9)}`,
    );
    for (const i of r.interactions)
      out.push(
        `${pad(i.interaction, 12)}${lpad(`${Math.round(i.medianMs)} ms`, 9)}${lpad(`${Math.round(i.maxMs)} ms`, 9)}${lpad(`${Math.round(i.longestTaskMs)} ms`, 14)}${lpad(`${Math.round(i.viewTreeMs)} ms`, 12)}${lpad(`${Math.round(i.drawMs)} ms`, 9)}`,
      );
    out.push(
      `  (${r.interactions[0].times.length} of each, from the event until every pane has drawn and the next frame is painted; search: typed, then Enter; keystroke: one more letter typed, until it shows — its search runs once typing pauses; time-open: the Time order tab opened from the flamegraphs, until every lane has drawn; time-range: a range dragged on its overview; time-zoom: a wheel step over a lane; sandwich: the pointer over a frame, S, until its callers are shown)`,
    );
  }
  if (results.app.length > 0) {
    out.push('');
    out.push(...appTable(results.app, appRepeat, results.appStart));
  }
  if (results.heap.length > 0) {
    out.push('');
    out.push(...heapTable(results.heap, repeats));
  }
  out.push('');
  out.push('Targets');
  for (const t of results.targets) out.push(`  ${t.met ? 'met   ' : 'NOT MET'} ${pad(t.what, 58)} ${t.value}`);
  return out.join('\n');
}
