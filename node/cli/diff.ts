/**
 * `flamelens diff BASE RUN`: what a run costs compared with the baseline — the total change, the
 * share an agent owns (`--match`), and the functions that changed most — as text, JSON or
 * Markdown; `--fail-above` turns it into a CI gate.
 */
import { DiffError, type ProfileDiff, diffProfiles } from '../../shared/diff/diff';
import { commonUnit } from '../../shared/diff/measure';
import { formatWeight, rankFunctions } from '../../shared/diff/diff-query';
import type { RepeatsComparison } from '../../shared/diff/repeats';
import type { Profile } from '../../shared/model/types';
import { compileQueryLoaded } from '../../shared/search/matcher';
import { type CommandHelp, defineCommand, helpText } from './command';
import { type Parsed, parseDiffArgs } from './diff-args';
import { loadSides, repeatsLine } from './diff-repeats';
import { headline, jsonReport, markdownReport, textReport } from './diff-report';
import { CliError } from './errors';
import { type Output, type Sink, writeJson, writeText } from './output';

export const DIFF_HELP: CommandHelp = {
  name: 'diff',
  synopsis:
    'flamelens diff BASE RUN [--match PATTERN] [--weight time|samples] [--idle exclude|include] [--normalize absolute|relative] [--no-match-entry] [--top N] [--json|--markdown] [--fail-above PERCENT]',
  summary: 'compare a run with the baseline: total cost change, agent share, functions that changed most',
  details:
    "BASE and RUN are each a file, or a Node.js process's per-thread .cpuprofile files\n" +
    '(node --cpu-prof with worker_threads) named together or as their folder: one run, a thread\n' +
    'per file, the main thread compared by default; or a folder of repeated runs (several\n' +
    "profiles of one kind): the mean of the repeats is compared, and each function's change gets\n" +
    "a 95% interval across repeats (Welch's t) and a verdict on its share of each repeat, tested\n" +
    'for the functions with enough samples, with the false discovery rate held at 5% over those\n' +
    '(Benjamini-Hochberg).\n' +
    'Call paths and functions are matched across the two files by name and file (V8 tiers,\n' +
    'addresses and absolute path prefixes left out). Both files must be measured alike (samples\n' +
    'with samples, time with time, bytes with bytes).\n\n' +
    '  --match PATTERN        share of each run whose stack holds a matching frame, and whose\n' +
    "                         innermost frame matches; PATTERN is searched like the app's search\n" +
    '                         box: text (case-insensitive) or /regex/, against names and paths\n' +
    '  --weight time          (default where both files have sample times: V8 .cpuprofile, trace\n' +
    '                         and 0x samples) each sample weighs how long it lasted, until the\n' +
    '                         next sample (the last one the mean interval), in microseconds\n' +
    '  --weight samples       each sample weighs 1: sample counts\n' +
    '  --normalize absolute   (default) both runs did the same work (the same load): a delta\n' +
    '                         is weight added, in the unit\n' +
    "  --normalize relative   each run as a share of its own total: a function's delta is its\n" +
    '                         change in share, in percentage points, so runs of different\n' +
    '                         lengths compare (difffolded.pl -n)\n' +
    "  --no-match-entry       keep the entry scripts apart: by default the run's entry script\n" +
    '                         (its first application file, e.g. server-otel.js) is the same\n' +
    "                         frame as the baseline's (server-baseline.js)\n" +
    '  --top N                functions listed (default 20; 0 for all that changed)\n' +
    '  --threshold PP         changes within this many percentage points (of the run, relative;\n' +
    '                         of the baseline, absolute) count as noise (default 0.1)\n' +
    '  --idle exclude         (default) leave out idle samples (V8 "(idle)", the kernel\'s idle\n' +
    '                         task), when the thread waited for work: totals, shares and the\n' +
    '                         change are of busy CPU\n' +
    '  --idle include         count idle samples too: totals are of every sample\n' +
    "  --fail-above PERCENT   exit status 2 when the run's total exceeds the baseline's by more\n" +
    '                         than PERCENT (a CI gate); with repeats, only when the 95% interval\n' +
    '                         of the change lies wholly above PERCENT, so noise does not fail it\n' +
    '  --event NAME           perf script: the event type to keep (default: the first one)\n' +
    '  --thread PID:TID|NAME|all  files with samples of several threads: the thread to compare\n' +
    '                         (default: the busiest main thread; stderr says which)\n' +
    '  --json                 one JSON object: unit, normalize, idle, change (run total / baseline\n' +
    '                         total - 1), baseline and run {file, name, total, idle, match}, and\n' +
    '                         functions [{name, file, line, baseline, run, delta, status}]. self\n' +
    '                         and total are in unit (sample counts for sampled profiles),\n' +
    "                         selfShare and totalShare fractions of that run's total; delta.self\n" +
    '                         and delta.total are run minus baseline in unit, the baseline scaled\n' +
    "                         to the run's total when relative; delta.*Share the change in share.\n" +
    '                         Functions are ranked by |delta.total|; status is new, removed or\n' +
    '                         changed. idle says whether totals leave idle samples out\n' +
    '                         ("excluded") or count them ("included"). entry is {baseline,\n' +
    '                         run}, the entry scripts matched, or null. With repeats also\n' +
    '                         repeats {baseline, run}, changeInterval {low, high} of change,\n' +
    '                         significance {basis, tested, floorSamples, falseDiscoveryRate}, and\n' +
    '                         per function interval {low, high} of delta.self, shareInterval of\n' +
    '                         the change in share, and significant (whether the self time\n' +
    '                         changed beyond noise, after false-discovery-rate control).\n' +
    '  --markdown             the same as a Markdown report\n',
};

interface Compared {
  d: ProfileDiff;
  run: Profile;
  stats: RepeatsComparison | undefined;
  /** the diff with idle samples left out, for the headline, when they are counted */
  withoutIdle: ProfileDiff | undefined;
}

/** The diff the arguments ask for. */
async function compare(a: Parsed, stderr: Sink): Promise<Compared> {
  let matcher;
  if (a.match !== undefined) {
    const q = (await compileQueryLoaded(a.match))!;
    if (q.error) throw new CliError(`--match ${a.match}: ${q.error}`);
    matcher = q.match;
  }
  const { base, run, stats } = await loadSides(a, stderr);
  if (!commonUnit(base.unit, run.unit))
    throw new CliError(
      `cannot compare ${a.base} (measured in ${base.unit}) with ${a.run} (measured in ${run.unit}): diff needs two profiles measured alike`,
    );
  const opts = {
    normalize: a.normalize,
    threshold: a.threshold / 100,
    excludeIdle: a.excludeIdle,
    matchEntry: a.matchEntry,
    ...(matcher ? { matcher } : {}),
  };
  try {
    const d = diffProfiles(base, run, opts);
    // The headline also says what the change is without idle samples, when they are counted.
    const idleCounted = a.output !== 'json' && !a.excludeIdle && (d.baseline.idle > 0 || d.run.idle > 0);
    const withoutIdle = idleCounted ? diffProfiles(base, run, { ...opts, excludeIdle: true }) : undefined;
    return { d, run, stats, withoutIdle };
  } catch (e) {
    if (e instanceof DiffError) throw new CliError(e.message);
    throw e;
  }
}

/** The warnings on stderr, the report on stdout. */
function report(a: Parsed, { d, run, stats, withoutIdle }: Compared, out: Output): void {
  for (const w of d.warnings) writeText(out.stderr, `flamelens: warning: ${w}\n`);
  const list = rankFunctions(d, a.top > 0 ? { limit: a.top } : {});
  if (a.output === 'json') return writeJson(out.stdout, jsonReport(d, a, list, stats));
  const h = headline(d, a, run, withoutIdle);
  if (stats) h.notes.push(repeatsLine(stats));
  writeText(out.stdout, a.output === 'markdown' ? markdownReport(d, a, h, list) : textReport(d, a, h, list));
}

/**
 * `--fail-above`: status 2 and a line on stderr when the run costs more than allowed. With
 * repeats, only when the whole interval is past the budget: noise does not flake it.
 */
function gate(a: Parsed, { d, stats }: Compared, stderr: Sink): number {
  const low = stats?.total.ratioInterval?.low;
  const over = low !== undefined ? low * 100 : d.change * 100;
  if (a.failAbove === undefined || !(over > a.failAbove)) return 0;
  stderr.write(
    `flamelens: the run's total is ${(d.change * 100).toFixed(1)}% over the baseline's (${formatWeight(d.run.total, d.unit)} vs ` +
      `${formatWeight(d.baseline.total, d.unit)})${low !== undefined ? `, at least ${(low * 100).toFixed(1)}% at 95% confidence` : ''}, more than --fail-above ${a.failAbove}%\n`,
  );
  return 2;
}

async function run(args: string[], out: Output): Promise<number> {
  const a = parseDiffArgs(args);
  if (a === 'help') return (out.stdout.write(helpText(DIFF_HELP)), 0);
  const compared = await compare(a, out.stderr);
  report(a, compared, out);
  return gate(a, compared, out.stderr);
}

export const diffCommand = defineCommand(DIFF_HELP, run);
