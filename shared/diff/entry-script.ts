/**
 * Entry scripts: the file each run was started with (`node server-otel.js`). Runs of one
 * comparison usually differ in it only by name — each variant is a small script that starts its
 * agent and then requires the same application (`server-baseline.js`, `server-ddtrace.js`) — so
 * by frame key alone the entry script's frames of every run are "new" and the baseline's
 * "removed", and zoom and hover lose the path there. Matching the entry scripts makes the frames
 * of the run's entry script the same functions as the baseline's entry script's frames of the
 * same name.
 *
 * The entry script of a run is found on its call tree:
 * 1. candidates are the call-tree nodes of the application's own code (`Category.App`) with no
 *    application or dependency frame above them: the first application code on a stack, entered
 *    from Node's own code (its start-up, its module loader, timers, the event loop);
 * 2. of these, the ones run by Node's module loader (their caller is a frame of
 *    `node:internal/modules/…`, such as CommonJS `Module._compile` or ES `ModuleJob.run`) are
 *    module top levels, and if there are any only they count: the main module is the one loaded
 *    nearest the root, before anything it requires;
 * 3. the entry script is the file of the candidate nearest the root; of those at the same depth,
 *    the heaviest (then the first).
 * A profile without application frames (folded stacks, which carry no file) has none.
 *
 * Two entry scripts are matched only when they are different files and neither occurs in the
 * other run at all: a file both runs have is the same file in both (a run whose start-up was not
 * recorded finds a request handler's file as its entry script, and that file must keep matching
 * itself).
 */
import { comparableFile } from '../model/frame-key';
import { Category, type Profile } from '../model/types';

/** The entry scripts of a baseline and a run, as comparable files (`app/server-ddtrace.js`). */
export interface EntryMatch {
  baseline: string;
  run: string;
}

const LOADER_PREFIX = 'node:internal/modules/';

/** Comparable file of every frame (a profile has thousands of frames but tens of files). */
function comparableFiles(p: Profile): string[] {
  const seen = new Map<string, string>();
  return p.frames.file.map((f) => {
    let c = seen.get(f);
    if (c === undefined) seen.set(f, (c = comparableFile(f)));
    return c;
  });
}

const entries = new WeakMap<Profile, string | undefined>();

/** The comparable file of a run's entry script (see the rule above), undefined when it has none. */
export function entryScript(p: Profile): string | undefined {
  // (a baseline is compared with every other run: its entry script is looked for once)
  if (entries.has(p)) return entries.get(p);
  const found = findEntryScript(p);
  entries.set(p, found);
  return found;
}

function findEntryScript(p: Profile): string | undefined {
  const t = p.tree;
  const { category } = p.frames;
  const files = comparableFiles(p);
  // Whether an application or dependency frame is on the stack above each node (pre-order:
  // parents first).
  const userAbove = new Uint8Array(t.length);
  let best = -1;
  let bestLoaded = false;
  for (let i = 1; i < t.length; i++) {
    const parent = t.parent[i]!;
    const pc = parent > 0 ? category[t.frame[parent]!]! : -1;
    userAbove[i] = userAbove[parent]! | (pc === Category.App || pc === Category.Dependency ? 1 : 0);
    if (userAbove[i] || category[t.frame[i]!] !== Category.App || !(t.total[i]! > 0)) continue;
    const loaded = parent > 0 && files[t.frame[parent]!]!.startsWith(LOADER_PREFIX);
    const better =
      best < 0 ||
      (loaded && !bestLoaded) ||
      (loaded === bestLoaded && (t.depth[i]! < t.depth[best]! || (t.depth[i] === t.depth[best] && t.total[i]! > t.total[best]!)));
    if (better) {
      best = i;
      bestLoaded = loaded;
    }
  }
  if (best < 0) return undefined;
  const file = files[t.frame[best]!]!;
  return file === '' ? undefined : file;
}

/** Whether any frame of `p` is in `file` (comparable form). */
function hasFile(p: Profile, file: string): boolean {
  const seen = new Set<string>();
  for (const f of p.frames.file) {
    if (seen.has(f)) continue;
    seen.add(f);
    if (comparableFile(f) === file) return true;
  }
  return false;
}

/** The entry scripts to match between a baseline and a run, undefined when there is nothing to match (see above). */
export function entryMatch(baseline: Profile, run: Profile): EntryMatch | undefined {
  const b = entryScript(baseline);
  const r = entryScript(run);
  if (b === undefined || r === undefined || b === r) return undefined;
  if (hasFile(baseline, r) || hasFile(run, b)) return undefined;
  return { baseline: b, run: r };
}

/**
 * The run with the frames of its entry script keyed as the baseline's entry script's frames of
 * the same name (`(anonymous)\tapp/server-ddtrace.js` → `(anonymous)\tapp/server-baseline.js`);
 * everything else is the run's own (the same arrays, not copies).
 */
export function withEntryMatched(run: Profile, m: EntryMatch): Profile {
  return { ...run, frames: { ...run.frames, key: run.frames.key.map((k) => matchedKey(k, m)) } };
}

/** The key a frame key of the run has once the entry scripts are matched (a key ends in its comparable file). */
export function matchedKey(key: string, m: EntryMatch): string {
  const suffix = `\t${m.run}`;
  return key.endsWith(suffix) ? `${key.slice(0, key.length - suffix.length)}\t${m.baseline}` : key;
}
