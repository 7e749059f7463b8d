/**
 * The search language shared by the app's search box and `flamelens diff --match`: plain text
 * is a case-insensitive substring, `/…/flags` is a regular expression; either is tried against
 * the function name AND the file path, so `dd-trace` finds the agent by its
 * `node_modules/dd-trace/…` path even where its function names say nothing.
 */
import type { RE2JS } from 're2js';
import type { Profile } from '../model/types';
import { onDemand } from '../on-demand';

/**
 * The engine of `/…/` queries, re2js, loaded when first needed: its code is a fifth of the
 * window's script, which it need not parse before drawing anything.
 */
const engine = onDemand(() => import('./re2').then((m) => m.RE2JS));

/** Loads the engine of regular expressions (once; again after a failed load). */
export const loadRegexEngine = engine.load;

/** Resolves once a load of the engine has settled, loaded or not (a failure shows where a `/…/` query is compiled). */
export const regexEngineSettled = engine.settled;

const REGEX_QUERY = /^\/(.+)\/([a-z]*)$/;

/** Whether `query` is a regular expression whose engine has not loaded yet (`loadRegexEngine`). */
export function awaitsRegexEngine(query: string): boolean {
  return engine.loaded() === undefined && REGEX_QUERY.test(query.trim());
}

export type FrameMatcher = ((name: string, file: string) => boolean) & {
  /** set when the matcher is one test applied to the name and to the file: `test(name) || test(file)` */
  test?: (s: string) => boolean;
};

/** A matcher that tries one test on the function name and on the file path. */
function eitherOf(test: (s: string) => boolean): FrameMatcher {
  return Object.assign((name: string, file: string) => test(name) || test(file), { test });
}

export interface CompiledQuery {
  match: FrameMatcher;
  /** set when the query is an invalid regular expression */
  error?: string;
}

/** RE2's flags for a JavaScript flag string: `i`, `s` and `m` as in JavaScript; the others change nothing here. */
function flagsOf(engine: typeof RE2JS, js: string): number {
  let f = 0;
  if (js.includes('i')) f |= engine.CASE_INSENSITIVE;
  if (js.includes('s')) f |= engine.DOTALL;
  if (js.includes('m')) f |= engine.MULTILINE;
  return f;
}

function regexError(e: unknown): string {
  const message = (e instanceof Error ? e.message : String(e)).replace(/^error parsing regexp: /, '');
  // What RE2 leaves out is what makes a pattern take exponential time.
  return /invalid escape sequence: `\\[1-9]|unsupported Perl syntax: `\(\?[=!<]|invalid named capture: `\(\?<[=!]/.test(message)
    ? `${message} (searches run in time proportional to the text, so back-references and look-around are not available)`
    : message;
}

/**
 * Compiles a query. `/…/` patterns run on RE2 (re2js), which matches in time linear in the
 * text: a pattern from the search box or from a workspace, such as `/^(a+)+$/` against a long
 * frame name, can never hang the window as a backtracking engine would. Their engine must have
 * loaded (`loadRegexEngine`; `compileQueryLoaded` does both): before, such a pattern matches
 * nothing and says why.
 */
export function compileQuery(query: string): CompiledQuery | undefined {
  const q = query.trim();
  if (q === '') return undefined;
  const re = REGEX_QUERY.exec(q);
  const re2 = engine.loaded();
  if (re) {
    if (!re2) return { match: () => false, error: 'regular expressions are not available: their code has not loaded' };
    try {
      const rx = re2.compile(re2.translateRegExp(re[1]!), flagsOf(re2, re[2]!));
      return { match: eitherOf((x) => rx.test(x)) };
    } catch (e) {
      return { match: () => false, error: `invalid regular expression: ${regexError(e)}` };
    }
  }
  // A case-insensitive expression of the escaped text: the same substring test as lower-casing
  // both sides, without a new string per frame name on every keystroke.
  const rx = new RegExp(q.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), 'i');
  return { match: eitherOf((x) => rx.test(x)) };
}

/** `compileQuery`, once the engine a regular expression needs has loaded. */
export async function compileQueryLoaded(query: string): Promise<CompiledQuery | undefined> {
  if (awaitsRegexEngine(query)) await loadRegexEngine();
  return compileQuery(query);
}

/**
 * Per-frame match flags for a profile: each distinct frame is tested once, and a file path —
 * shared by all the functions in it — is tested once for all of them.
 */
export function matchFrames(p: Profile, match: FrameMatcher): Uint8Array {
  const f = p.frames;
  const out = new Uint8Array(f.length);
  const test = match.test;
  if (!test) {
    for (let i = 0; i < f.length; i++) out[i] = match(f.name[i]!, f.file[i]!) ? 1 : 0;
    return out;
  }
  const fileMatches = new Map<string, boolean>();
  for (let i = 0; i < f.length; i++) {
    if (test(f.name[i]!)) {
      out[i] = 1;
      continue;
    }
    const file = f.file[i]!;
    let m = fileMatches.get(file);
    if (m === undefined) fileMatches.set(file, (m = test(file)));
    if (m) out[i] = 1;
  }
  return out;
}

export interface MatchShare {
  /** fraction of the run's weight whose stack contains a matching frame */
  inclusive: number;
  /** fraction of the run's weight whose leaf frame matches */
  self: number;
  /** the same as weights in the profile's unit */
  inclusiveWeight: number;
  selfWeight: number;
}

/**
 * How much of a run the matching frames own: inclusive, the weight of every node with a matching
 * frame on its stack; self, the weight of nodes whose own frame matches.
 */
export function matchShare(p: Profile, frameMatches: Uint8Array, weights: Float64Array = p.tree.self): MatchShare {
  const { frame, end, length } = p.tree;
  let inc = 0;
  let self = 0;
  let total = 0;
  // Pre-order: a matching node's subtree is the run of nodes up to its `end`, all of it under a
  // match. Read front to back, with no per-node state (this runs on every search keystroke).
  for (let i = 1; i < length;) {
    if (frameMatches[frame[i]!]) {
      for (const e = end[i]!; i < e; i++) {
        const w = weights[i]!;
        total += w;
        inc += w;
        if (frameMatches[frame[i]!]) self += w;
      }
    } else total += weights[i++]!;
  }
  total += weights[0]!;
  return {
    inclusive: total > 0 ? inc / total : 0,
    self: total > 0 ? self / total : 0,
    inclusiveWeight: inc,
    selfWeight: self,
  };
}
