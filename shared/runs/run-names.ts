/**
 * What each run is called and which one is the baseline, from the paths of the files (or 0x
 * folders) the runs came from. Profilers name their files alike — `CPU.20261121.233005.6118.0.001.cpuprofile`,
 * `perf.F999.script.txt`, `node_trace.1.log.gz`, `<pid>.0x/` — so what tells a run apart is
 * usually the folder the user put it in: `baseline/CPU….cpuprofile` and `otel/CPU….cpuprofile`
 * are "baseline" and "otel". Paths may be absolute (Linux, macOS, Windows), relative to a drop
 * (`/baseline/CPU….cpuprofile`) or a bare file name (a dropped file, whose path the page cannot see).
 */

/** The segments of a path, split on `/` and `\`, without empty and `.` segments. */
export function pathSegments(path: string): string[] {
  return path.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
}

/** The folder around a path, its segments joined with `/` ('' for a bare file name, whose folder the page cannot see). */
export function folderPath(path: string): string {
  return pathSegments(path).slice(0, -1).join('/');
}

const COMPRESSED = /\.(gz|gzip|zst|bz2|xz)$/i;

// Names profilers give their output, which say nothing about the run: the folder around them does.
const TOOL_NAMES: RegExp[] = [
  /^(cpu|heap)\.\d+\.\d+\.\d+\.\d+\.\d+\.(cpuprofile|heapprofile)$/i, // node --cpu-prof / --heap-prof
  /^(cpu|heap)?profile(\.\d+)?\.(cpuprofile|heapprofile|pb|pprof|json)$/i,
  /^perf(\.[\w-]+)*\.(txt|script|data|folded|out)$/i, // perf record / perf script
  /^out\.(perf|folded|stacks)$/i,
  /^node_trace\.\d+\.log$/i, // node --trace-event-categories
  /^(trace|chrome-trace|profile)(-\d+)?\.json$/i,
  /^(\d+\.)?0x$/i, // a 0x output folder
  /^(flamegraph\.html|ticks\.json|meta\.json)$/i,
  /^isolate-[\w-]+-v8(\.log)?(\.json)?$/i,
  /^stacks\.\d+\.json$/i,
  /^(cpu|heap|profile)(\.pb|\.pprof)?$/i,
];

/** Whether a file or folder name is one a profiler gives every run alike. */
export function isToolName(name: string): boolean {
  const bare = name.replace(COMPRESSED, '');
  return TOOL_NAMES.some((re) => re.test(bare));
}

/** A Windows drive (`C:`) is not a name for a run. */
const isDrive = (segment: string) => /^[a-z]:$/i.test(segment);

function commonPrefixLength(lists: string[][]): number {
  const shortest = Math.min(...lists.map((l) => l.length));
  let n = 0;
  while (n < shortest && lists.every((l) => l[n] === lists[0]![n])) n++;
  return n;
}

function commonSuffixLength(lists: string[][], after: number): number {
  const shortest = Math.min(...lists.map((l) => l.length)) - after;
  let n = 0;
  while (n < shortest && lists.every((l) => l[l.length - 1 - n] === lists[0]![lists[0]!.length - 1 - n])) n++;
  return n;
}

/** The name of a run that is alone: its file, unless a profiler named it, then its folder. */
function loneName(segments: string[]): string {
  const file = segments[segments.length - 1] ?? '';
  if (!isToolName(file)) return file;
  for (let i = segments.length - 2; i >= 0; i--) {
    const dir = segments[i]!;
    if (!isDrive(dir) && !isToolName(dir)) return dir;
  }
  return file;
}

/** The fewest trailing segments of each list that tell them apart (all of them where nothing does). */
function shortestUnique(lists: string[][]): string[] {
  const longest = Math.max(...lists.map((l) => l.length));
  let names: string[] = [];
  for (let k = 1; k <= longest; k++) {
    names = lists.map((l) => l.slice(-k).join('/'));
    if (new Set(names).size === names.length) return names;
  }
  return names;
}

/** Names still alike get ` (2)`, ` (3)`… in the order of the runs. */
function disambiguate(names: string[]): string[] {
  const count = new Map<string, number>();
  for (const n of names) count.set(n, (count.get(n) ?? 0) + 1);
  const seen = new Map<string, number>();
  return names.map((n) => {
    if (count.get(n) === 1) return n;
    const k = (seen.get(n) ?? 0) + 1;
    seen.set(n, k);
    return k === 1 ? n : `${n} (${k})`;
  });
}

/**
 * A name for each run, from the paths of all the runs open together: the part of its path that
 * differs from the others'. The file's name when the files are named apart by their user
 * (`baseline.cpuprofile`, `otel.cpuprofile`) or sit in one folder, otherwise the folders that
 * differ (the fewest, closest to the file, that tell the runs apart). A run alone is named by
 * its file, or by its folder when a profiler named the file. Names that still collide are
 * numbered.
 */
export function runNames(paths: readonly string[]): string[] {
  if (paths.length === 0) return [];
  const segs = paths.map((p) => {
    const s = pathSegments(p);
    return s.length > 0 ? s : [p];
  });
  if (segs.length === 1) return [loneName(segs[0]!)];

  const files = segs.map((s) => s[s.length - 1]!);
  const dirs = segs.map((s) => s.slice(0, -1));
  const userNamed = files.every((f) => !isToolName(f)) && new Set(files).size === files.length;
  const p = commonPrefixLength(dirs);
  const q = commonSuffixLength(dirs, p);
  const apart = dirs.map((d) => d.slice(p, d.length - q));
  const sameFolder = apart.every((d) => d.length === 0);

  let names: string[];
  if (userNamed || sameFolder) names = files;
  else {
    // Each folder once: two runs from one folder must not make the others' names longer.
    const folders = [...new Map(apart.filter((d) => d.length > 0).map((d) => [d.join('/'), d])).values()];
    const byFolder = new Map(shortestUnique(folders).map((name, i) => [folders[i]!.join('/'), name]));
    // A run whose folders are all shared with the others (one folder above them) goes by its file.
    names = apart.map((d, j) => (d.length > 0 ? byFolder.get(d.join('/'))! : files[j]!));
    // Runs from one folder (its CPU profile and its trace) are told apart by their files.
    names = names.map((n, j) => (names.some((m, k) => k !== j && m === n && files[k] !== files[j]) ? `${n}/${files[j]}` : n));
  }
  return disambiguate(names);
}

// Words that mark the run the others are measured against; the higher, the surer.
const BASELINE_WORDS: Record<string, number> = {
  baseline: 3,
  baselines: 3,
  control: 2,
  reference: 2,
  before: 2,
  base: 2,
  vanilla: 2,
  noagent: 2,
  unpatched: 2,
  main: 1,
  master: 1,
  original: 1,
  orig: 1,
  ref: 1,
};

/** The words of a path segment: `server-baseline.cpuprofile` → server, baseline, cpuprofile; `noAgent` → no, agent. */
export function segmentWords(segment: string): string[] {
  return segment
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** How surely a path segment names a baseline (0: not at all); whole words only, so `database` is not `base`. */
function baselineScore(segment: string): number {
  const words = segmentWords(segment);
  let best = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    best = Math.max(best, BASELINE_WORDS[w] ?? 0);
    // "no agent", "no-apm", "without tracing"
    if ((w === 'no' || w === 'without') && /^(agent|apm|tracer|tracing|instrumentation)$/.test(words[i + 1] ?? ''))
      best = Math.max(best, 2);
  }
  return best;
}

/**
 * The index of the run whose path says it is the baseline (`baseline/…`, `before/…`,
 * `server-control.cpuprofile`…), or undefined when none does. Only the part of each path that
 * differs from the others counts: a `main/` every run shares names none of them. The surest
 * word wins; among equals, the first run.
 */
export function baselineIndex(paths: readonly string[]): number | undefined {
  if (paths.length === 0) return undefined;
  const segs = paths.map(pathSegments);
  let own: string[][];
  if (segs.length === 1) own = [segs[0]!.slice(-2)];
  else {
    // What tells each path apart: the folders not all share at the start or the end, and the
    // file unless all have the same name.
    const files = segs.map((s) => s[s.length - 1] ?? '');
    const dirs = segs.map((s) => s.slice(0, -1));
    const p = commonPrefixLength(dirs);
    const q = commonSuffixLength(dirs, p);
    const sameFile = files.every((f) => f === files[0]);
    own = dirs.map((d, i) => [...d.slice(p, d.length - q), ...(sameFile ? [] : [files[i]!])]);
  }
  let best: number | undefined;
  let bestScore = 0;
  own.forEach((s, i) => {
    const score = Math.max(0, ...s.map(baselineScore));
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  });
  return best;
}

/**
 * The paths as a workspace keeps them: without the folders every run shares at the start (a
 * home folder says nothing about the runs and is not for the people a workspace is sent to),
 * but with each run's own folder and file, so that names are derived again as they were.
 */
export function pathsToKeep(paths: readonly string[]): string[] {
  const segs = paths.map(pathSegments);
  if (segs.length === 1) return [segs[0]!.slice(-2).join('/')];
  const p = commonPrefixLength(segs.map((s) => s.slice(0, -1)));
  return segs.map((s) => s.slice(p).join('/'));
}
