/**
 * `flamelens heatmap FILE [--rows N] [--json] [--include-idle] [--event NAME]`: FlameScope's
 * subsecond-offset heatmap of a profile's samples, as JSON or as a shaded character grid.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_ROWS, type Heatmap, hasTimestamps, heatmap, rowOffsetMs } from '../../shared/heatmap/heatmap';
import type { Profile } from '../../shared/model/types';
import { type CommandHelp, defineCommand, helpText } from './command';
import { type Output, type Sink, writeJson, writeText } from './output';
import { CliError } from './errors';
import { importAt } from './load';
import { type RunArg, expectRuns, loadRun } from './runs';
import { fileSource } from './node-source';

const MAX_ROWS = 10_000;

export const HEATMAP_HELP: CommandHelp = {
  name: 'heatmap',
  synopsis: 'flamelens heatmap FILE [--rows N] [--json] [--include-idle] [--event NAME] [--thread PID:TID|NAME|all]',
  summary: "print a subsecond-offset heatmap (FlameScope's): samples per second and slice of a second",
  details:
    'One column per second of the run, one row per slice of a second (the first slice at the\n' +
    'bottom), each cell the number of samples taken then. Needs sample timestamps: perf script,\n' +
    '.cpuprofile, Chrome traces with samples, 0x folders with an isolate-*-v8.log.json. Idle\n' +
    'samples (V8 "(idle)", the kernel\'s swapper idle loop) are left out unless asked for.\n\n' +
    `  --rows N         slices per second (default ${DEFAULT_ROWS}: 20 ms each)\n` +
    '  --json           print {"rows","columns","start","values"}: values[column][row] is a sample\n' +
    '                   count, row 0 the last slice of each second, start the first second on the\n' +
    "                   profile's clock (FlameScope's layout)\n" +
    '  --include-idle   count idle samples too\n' +
    '  --event NAME     perf script: the event type to keep (default: the first one)\n' +
    '  --thread PID:TID|NAME|all  traces with samples of several threads: the thread to draw\n' +
    '                   (default: the busiest main thread; stderr says which)\n',
};

/** 0x isolate log preprocessed by `node --prof-process --preprocess`: the 0x file with tick times. */
const ISOLATE_JSON = /^isolate-.*-v8\.log\.json(\.gz)?$/;

/**
 * The profile at `path`, with sample times when it has any. A 0x folder is read from its
 * `ticks.json` first, which has no times; its isolate log has them, so that is read instead.
 */
async function loadTimed(run: RunArg, stderr: Sink, perfEvent?: string, thread?: string): Promise<Profile> {
  const path = run.label;
  const p = await loadRun(run, stderr, perfEvent, thread);
  if (hasTimestamps(p) || run.files || !statSync(path).isDirectory()) return p;
  const log = readdirSync(path).find((f) => ISOLATE_JSON.test(f));
  if (!log) return p;
  const timed = await importAt(join(path, log), fileSource(join(path, log)), perfEvent);
  timed.name = p.name;
  return timed;
}

/** Darker for more: blank is no sample, `@` the busiest cell. */
const SHADES = ' .:-=+*#%@';
/** Seconds per block of the text rendering; longer runs get several blocks, one under another. */
const BLOCK = 100;

function shade(v: number, max: number): string {
  if (v <= 0) return ' ';
  return SHADES[Math.min(SHADES.length - 1, Math.ceil((v / max) * (SHADES.length - 1)))]!;
}

function msLabel(ms: number): string {
  return Number.isInteger(ms) ? String(ms) : ms.toFixed(1);
}

/** The heatmap as text: a grid per block of seconds, ms offsets on the left, seconds below. */
export function heatmapText(name: string, hm: Heatmap): string {
  const out: string[] = [];
  const idle = hm.includeIdle
    ? 'idle samples included'
    : hm.idleCount > 0
      ? `${hm.idleCount} idle sample(s) left out (--include-idle counts them)`
      : 'no idle samples';
  const untimed = hm.untimedCount > 0 ? `; ${hm.untimedCount} sample(s) without a time left out` : '';
  out.push(`${name}: ${hm.sampleCount} sample(s) over ${hm.columns} s from ${hm.start} s on the profile's clock; ${idle}${untimed}`);
  out.push(
    `${hm.rows} rows of ${msLabel(1000 / hm.rows)} ms per second, the first slice at the bottom; ` +
      `"${SHADES.slice(1)}" shade 1 … ${hm.maxCount} sample(s) per cell`,
  );
  // Label about ten rows, always including the bottom (0 ms) one.
  const step = Math.max(1, Math.ceil(hm.rows / 10));
  const labels = Array.from({ length: hm.rows }, (_, r) => ((hm.rows - 1 - r) % step === 0 ? msLabel(rowOffsetMs(hm.rows, r)) : ''));
  const lw = Math.max(2, ...labels.map((l) => l.length));
  for (let b = 0; b < hm.columns; b += BLOCK) {
    const w = Math.min(BLOCK, hm.columns - b);
    out.push('');
    out.push(`${'ms'.padStart(lw)} +${'-'.repeat(w)}+`);
    for (let r = 0; r < hm.rows; r++) {
      let line = '';
      for (let c = b; c < b + w; c++) line += shade(hm.values[c]![r]!, hm.maxCount);
      out.push(`${labels[r]!.padStart(lw)} |${line}|`);
    }
    out.push(`${' '.repeat(lw)} +${'-'.repeat(w)}+`);
    // Second offsets under every tenth column.
    let axis = '';
    for (let c = b; c < b + w; c++) {
      if (axis.length > c - b) continue;
      if (c % 10 === 0) axis += String(c);
      else axis += ' ';
    }
    out.push(`${' '.repeat(lw + 2)}${axis.trimEnd()}  s`);
  }
  return `${out.join('\n')}\n`;
}

async function run(args: string[], out: Output): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      rows: { type: 'string' },
      json: { type: 'boolean' },
      'include-idle': { type: 'boolean' },
      event: { type: 'string' },
      thread: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return (out.stdout.write(helpText(HEATMAP_HELP)), 0);
  const [r] = expectRuns(positionals, 1, 'heatmap', "exactly one FILE (or one process's per-thread .cpuprofile files)");
  let rows = DEFAULT_ROWS;
  if (values.rows !== undefined) {
    rows = /^\d+$/.test(values.rows.trim()) ? Number(values.rows) : NaN;
    if (!(rows >= 1 && rows <= MAX_ROWS)) throw new CliError(`--rows must be a whole number from 1 to ${MAX_ROWS}, not "${values.rows}"`);
  }
  const path = r!.label;
  const p = await loadTimed(r!, out.stderr, values.event, values.thread);
  if (!hasTimestamps(p))
    throw new CliError(
      `${path} has no sample timestamps; heatmaps need perf script, .cpuprofile, Chrome traces with samples or 0x isolate logs`,
    );
  let hm: Heatmap;
  try {
    hm = heatmap(p, { rows, includeIdle: values['include-idle'] === true });
  } catch (e) {
    if (e instanceof RangeError) throw new CliError(`${path}: ${e.message.replace(`${p.name}: `, '')}`);
    throw e;
  }
  if (values.json) writeJson(out.stdout, `${JSON.stringify({ rows: hm.rows, columns: hm.columns, start: hm.start, values: hm.values })}\n`);
  else writeText(out.stdout, heatmapText(p.name, hm));
  return 0;
}

export const heatmapCommand = defineCommand(HEATMAP_HELP, run);
