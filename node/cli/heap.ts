/**
 * `flamelens heap FILE [--json] [--match PATTERN]`: the summary of a heap snapshot by class, and
 * `flamelens heap BASE RUN`: the per-class comparison of two snapshots, with what objects matching
 * a search keep alive in each.
 */
import { type HeapSummary, compareClasses, heapSummary, matchRetained } from '../../shared/heap/summary';
import type { HeapGraph } from '../../shared/model/types';
import { runNames } from '../../shared/runs/run-names';
import { type FrameMatcher, compileQueryLoaded } from '../../shared/search/matcher';
import { type CommandHelp, defineCommand, helpText, parseCommandArgs } from './command';
import { CliError } from './errors';
import { load, stdinOnce } from './load';
import { type Output, writeJson, writeText } from './output';
import { allocatedBetween } from '../../shared/heap/allocated';

export const HEAP_HELP: CommandHelp = {
  name: 'heap',
  synopsis: 'flamelens heap FILE [BASE RUN] [--allocated] [--match PATTERN] [--top N] [--json]',
  summary: 'summarize a heap snapshot by class, or compare two by class',
  details:
    'With one .heapsnapshot: nodes, edges, total size, the classes (one per node type and name)\n' +
    'with their count, self size and retained size, and the objects that retain most. Retained\n' +
    'sizes are those of Chrome DevTools and memlab (weak edges do not retain). With two, BASE\n' +
    "then RUN: each class's count and self size in both, largest change first.\n\n" +
    '  --allocated       with two snapshots of one process, BEFORE and AFTER: the objects of AFTER\n' +
    '                    allocated since BEFORE (their ids are not in BEFORE), by class, with the\n' +
    '                    bytes they keep alive; --json {"allocated":{"count","selfSize",\n' +
    '                    "retainedSize"},"classes":[{"type","name","count","selfSize","retainedSize"}]}\n' +
    '  --match PATTERN   also the bytes kept alive by objects whose constructor or function name,\n' +
    "                    or whose closure's script path, matches PATTERN (the app's search: text,\n" +
    '                    or /regex/), e.g. --match dd-trace\n' +
    '  --top N           rows of the text tables (default 20; 0 for all)\n' +
    '  --json            print {"nodes","edges","totalSize","classes","largest"} (25 largest), or\n' +
    '                    for two files {"classes":[{"type","name","base","run","delta"}]}, each\n' +
    '                    of base, run, delta {"count","selfSize"}; with --match a "match" field\n',
};

async function loadHeap(path: string): Promise<HeapGraph> {
  const p = await load(path);
  if (!p.heap) throw new CliError(`${path}: not a heap snapshot (it reads as ${p.format}); heap takes .heapsnapshot files`);
  return p.heap;
}

const bytes = (n: number) => n.toLocaleString('en-US');
const signed = (n: number) => (n > 0 ? `+${bytes(n)}` : bytes(n));

function table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i < r.length - 1 ? c.padStart(widths[i]!) : c)).join('  ');
  return [line(head), ...rows.map(line)];
}

const label = (type: string, name: string) => `${name.length > 60 ? `${name.slice(0, 57)}…` : name} (${type})`.replace(/\s+/g, ' ');

export function summaryText(
  file: string,
  s: HeapSummary,
  top: number,
  match?: { pattern: string; objects: number; retainedSize: number },
): string {
  const out = [`${file}: ${bytes(s.nodes)} nodes, ${bytes(s.edges)} edges, ${bytes(s.totalSize)} bytes`, ''];
  const classes = top > 0 ? s.classes.slice(0, top) : s.classes;
  out.push(
    ...table(
      ['count', 'self size', 'retained size', 'class'],
      classes.map((c) => [bytes(c.count), bytes(c.selfSize), bytes(c.retainedSize), label(c.type, c.name)]),
    ),
  );
  out.push('', 'largest objects by retained size:');
  out.push(
    ...table(
      ['id', 'self size', 'retained size', 'object'],
      s.largest
        .slice(0, top > 0 ? Math.min(top, 10) : undefined)
        .map((o) => [`@${o.id}`, bytes(o.selfSize), bytes(o.retainedSize), label(o.type, o.name)]),
    ),
  );
  if (match) out.push('', `"${match.pattern}": ${bytes(match.objects)} objects keep ${bytes(match.retainedSize)} bytes alive`);
  return `${out.join('\n')}\n`;
}

interface HeapArgs {
  files: string[];
  json: boolean;
  allocated: boolean;
  top: number;
  pattern?: string;
  matcher?: FrameMatcher;
}

async function parse(args: string[]): Promise<HeapArgs | 'help'> {
  const parsed = parseCommandArgs('heap', args, {
    json: { type: 'boolean' },
    allocated: { type: 'boolean' },
    match: { type: 'string' },
    top: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  const { values: v, positionals } = parsed;
  if (v.help) return 'help';
  if (positionals.length < 1 || positionals.length > 2)
    throw new CliError('heap takes one FILE, or two: BASE and RUN (see flamelens heap --help)');
  const top = v.top === undefined ? 20 : Number(v.top);
  if (!Number.isInteger(top) || top < 0 || v.top?.trim() === '')
    throw new CliError(`--top must be a whole number (0 for all), not "${v.top}"`);
  if (v.allocated && positionals.length !== 2)
    throw new CliError('--allocated takes two snapshots of one process: BEFORE and AFTER (see flamelens heap --help)');
  const a: HeapArgs = { files: positionals, json: v.json === true, allocated: v.allocated === true, top };
  if (v.match !== undefined) {
    const q = await compileQueryLoaded(v.match);
    if (!q) throw new CliError('--match needs a PATTERN');
    if (q.error) throw new CliError(`--match ${v.match}: ${q.error}`);
    a.pattern = v.match;
    a.matcher = q.match;
  }
  stdinOnce(positionals);
  return a;
}

type Match = { pattern: string; objects: number; retainedSize: number };

/** One snapshot: its summary by class. */
function summarizeOne(a: HeapArgs, graph: HeapGraph, match: Match | undefined): string {
  const s = heapSummary(graph);
  if (!a.json) return summaryText(a.files[0]!, s, a.top, match);
  const out: Record<string, unknown> = { ...s };
  if (match) out.match = match;
  return `${JSON.stringify(out)}\n`;
}

/** Two snapshots: each class in both, largest change first. */
function compareTwo(a: HeapArgs, graphs: HeapGraph[], matches: Match[] | undefined): string {
  const [base, run] = graphs.map((g) => heapSummary(g, 0));
  const classes = compareClasses(base!.classes, run!.classes);
  const [b, r] = matches ?? [];
  if (a.json) {
    const out: Record<string, unknown> = { classes };
    if (b && r)
      out.match = {
        pattern: a.pattern,
        base: { objects: b.objects, retainedSize: b.retainedSize },
        run: { objects: r.objects, retainedSize: r.retainedSize },
        delta: { retainedSize: r.retainedSize - b.retainedSize },
      };
    return `${JSON.stringify(out)}\n`;
  }
  const [nb, nr] = runNames(a.files);
  const rows = (a.top > 0 ? classes.slice(0, a.top) : classes).map((c) => [
    signed(c.delta.selfSize),
    signed(c.delta.count),
    bytes(c.base.selfSize),
    bytes(c.run.selfSize),
    `${label(c.type, c.name)}${c.base.count === 0 ? '  new' : c.run.count === 0 ? '  gone' : ''}`,
  ]);
  const out = [
    `${nb} → ${nr}: ${bytes(base!.totalSize)} → ${bytes(run!.totalSize)} bytes (${signed(run!.totalSize - base!.totalSize)}), ${bytes(base!.nodes)} → ${bytes(run!.nodes)} nodes`,
    '',
    ...table(['Δ self size', 'Δ count', `${nb} self`, `${nr} self`, 'class'], rows),
  ];
  if (b && r)
    out.push(
      '',
      `"${a.pattern}" keeps ${bytes(b.retainedSize)} bytes alive in ${nb} (${bytes(b.objects)} objects) and ${bytes(r.retainedSize)} in ${nr} (${bytes(r.objects)} objects): ${signed(r.retainedSize - b.retainedSize)}`,
    );
  return `${out.join('\n')}\n`;
}

/** Two snapshots of one process: what the later one holds that was allocated since the earlier. */
function allocatedSince(a: HeapArgs, [before, after]: HeapGraph[]): string {
  const { isNew: _, classes, ...totals } = allocatedBetween(before!, after!);
  if (a.json) return `${JSON.stringify({ allocated: totals, classes: a.top > 0 ? classes.slice(0, a.top) : classes })}\n`;
  const [nb, na] = a.files;
  const rows = (a.top > 0 ? classes.slice(0, a.top) : classes).map((c) => [
    bytes(c.count),
    bytes(c.selfSize),
    bytes(c.retainedSize),
    label(c.type, c.name),
  ]);
  return `${[
    `${na}: ${bytes(totals.count)} objects allocated since ${nb} (${bytes(totals.selfSize)} bytes), keeping ${bytes(totals.retainedSize)} bytes alive`,
    '',
    ...table(['count', 'self size', 'retained size', 'class'], rows),
  ].join('\n')}\n`;
}

async function run(args: string[], out: Output): Promise<number> {
  const a = await parse(args);
  if (a === 'help') return (out.stdout.write(helpText(HEAP_HELP)), 0);
  const graphs = await Promise.all(a.files.map(loadHeap));
  const matcher = a.matcher;
  const matches = matcher ? graphs.map((g) => ({ pattern: a.pattern!, ...matchRetained(g, matcher) })) : undefined;
  const report = a.allocated
    ? allocatedSince(a, graphs)
    : graphs.length === 1
      ? summarizeOne(a, graphs[0]!, matches?.[0])
      : compareTwo(a, graphs, matches);
  (a.json ? writeJson : writeText)(out.stdout, report);
  return 0;
}

export const heapCommand = defineCommand(HEAP_HELP, run);
