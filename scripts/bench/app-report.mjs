// The app path's figures judged against the issue's targets, and its table (scripts/bench/app.mjs
// measures them; scripts/bench.mjs prints them).

/**
 * The issue's targets for each input of the app path: the app within 2× the CLI's wall time, no
 * main-thread task over 200 ms after the first draw, the renderer's peak memory below 3× the
 * file's size and the CLI's below 2×. `within`: a figure at the limit meets a time target, not a
 * memory one.
 */
export const APP_TARGETS = {
  ratio: { limit: 2, within: true, text: 'app ≤ 2× the CLI' },
  longestTaskMs: { limit: 200, within: true, text: 'no task > 200 ms after the draw' },
  rendererPerFile: { limit: 3, within: false, text: 'renderer peak < 3× file' },
  cliPerFile: { limit: 2, within: false, text: 'CLI peak < 2× file' },
};

function met(key, value) {
  const t = APP_TARGETS[key];
  return t.within ? value <= t.limit : value < t.limit;
}

/** Each target of `a` (a row of the app table): { key, what, value, met }; none for a figure not measured. */
export function appTargets(a) {
  const name = `app ${a.label ?? a.format} ${a.sizeMB} MB`;
  const shown = {
    ratio: `${a.ratio.toFixed(2)}× (${Math.round(a.navigationMs)} ms vs ${Math.round(a.cliMs)} ms)`,
    longestTaskMs: `${Math.round(a.longestTaskMs)} ms`,
    rendererPerFile: `${a.rendererPerFile?.toFixed(2)}×`,
    cliPerFile: `${a.cliPerFile?.toFixed(2)}×`,
  };
  return Object.keys(APP_TARGETS)
    .filter((key) => a[key] !== undefined)
    .map((key) => ({ key, what: `${name}: ${APP_TARGETS[key].text}`, value: shown[key], met: met(key, a[key]) }));
}

const MB = 1e6;
const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);

/** The app table's lines: per input, each figure with its target marked (✓ met, ✗ not). */
export function appTable(rows, repeat, start) {
  const mark = (a, key) => {
    const t = appTargets(a).find((x) => x.key === key);
    return t === undefined ? ' ' : t.met ? '✓' : '✗';
  };
  const out = [
    'App path: `flamelens open FILE` in headless Chromium, navigation until every pane is drawn, against `flamelens collapse FILE`',
    `${pad('input', 24)}${lpad('size', 8)}${lpad('limit', 9)}${lpad('CLI', 9)}${lpad('app', 9)}${lpad('app/CLI', 10)}${lpad('task after', 12)}${lpad('renderer', 10)}${lpad('× file', 9)}${lpad('CLI RSS', 9)}${lpad('× file', 9)}`,
  ];
  for (const a of rows)
    out.push(
      `${pad(a.label ?? a.format, 24)}${lpad(`${Math.round(a.bytes / MB)} MB`, 8)}${lpad(a.limitMs === undefined ? '—' : `${Math.round(a.limitMs)} ms`, 9)}${lpad(`${Math.round(a.cliMs)} ms`, 9)}${lpad(`${Math.round(a.navigationMs)} ms`, 9)}${lpad(`${a.ratio.toFixed(2)} ${mark(a, 'ratio')}`, 10)}${lpad(`${Math.round(a.longestTaskMs)} ms ${mark(a, 'longestTaskMs')}`, 12)}${lpad(a.rendererPeakBytes === undefined ? '—' : `${Math.round(a.rendererPeakBytes / MB)} MB`, 10)}${lpad(a.rendererPerFile === undefined ? '—' : `${a.rendererPerFile.toFixed(2)} ${mark(a, 'rendererPerFile')}`, 9)}${lpad(a.cliPeakRssBytes === undefined ? '—' : `${Math.round(a.cliPeakRssBytes / MB)} MB`, 9)}${lpad(a.cliPerFile === undefined ? '—' : `${a.cliPerFile.toFixed(2)} ${mark(a, 'cliPerFile')}`, 9)}`,
    );
  out.push(
    `  (MB = 10^6 bytes. limit: JSON.parse or a bare line split of the same file, best of ${repeat}; CLI, app: medians of ${repeat} alternating runs; task after: the longest main-thread task in the 10 s after the first draw, renderer: the renderer process's peak resident memory (VmHWM, its workers included), CLI RSS: \`flamelens collapse\`'s — each the largest of the runs. ✓/✗: app ≤ 2× CLI, task ≤ 200 ms, renderer < 3× file, CLI < 2× file)`,
  );
  if (start) out.push(...startLines(start));
  out.push(...cpuTable(rows));
  return out;
}

/**
 * The fixed costs, measured on a file of three lines: the app's (the page's own start and first
 * draw) and the command's (Node starting and loading it). Where the command reads a file in less
 * than half the app's fixed cost, the app cannot be within 2× of it, however fast it reads.
 */
export function startLines(start) {
  const app = Math.round(start.navigationMs);
  const cli = Math.round(start.cliMs);
  return [
    `Fixed costs (a 3-line folded file, medians): the app ${app} ms from navigation until drawn, the command ${cli} ms; app ≤ 2× the command needs the command to take at least ${Math.round(app / 2)} ms even if the app read the file in no time`,
  ];
}

/** The kinds of process whose CPU time the app table shows, in order (others are summed in the total only). */
const CPU_KINDS = ['renderer', 'network', 'browser', 'gpu', 'server'];

/**
 * Where the app's time goes, steadier than wall times on a shared machine: the CPU time (ms) each
 * process spent from navigation until drawn (medians of the runs), against the command's. None
 * where it was not measured (off Linux).
 */
export function cpuTable(rows) {
  const measured = rows.filter((a) => a.appCpuMs && Object.keys(a.appCpuMs).length > 0 && a.cliCpuMs !== undefined);
  if (measured.length === 0) return [];
  const out = [
    `CPU time until drawn (ms, medians): the app's processes against the command's`,
    `${pad('input', 24)}${lpad('size', 8)}${lpad('CLI', 9)}${lpad('app', 9)}${lpad('÷ CLI', 8)}${CPU_KINDS.map((k) => lpad(k, 10)).join('')}`,
  ];
  for (const a of measured) {
    const total = Object.values(a.appCpuMs).reduce((s, v) => s + v, 0);
    out.push(
      `${pad(a.label ?? a.format, 24)}${lpad(`${Math.round(a.bytes / MB)} MB`, 8)}${lpad(Math.round(a.cliCpuMs), 9)}${lpad(Math.round(total), 9)}${lpad((total / a.cliCpuMs).toFixed(2), 8)}${CPU_KINDS.map((k) => lpad(a.appCpuMs[k] === undefined ? '—' : Math.round(a.appCpuMs[k]), 10)).join('')}`,
    );
  }
  return out;
}
