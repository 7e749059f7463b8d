/**
 * Folded-stack output (`frame;frame;…;frame WEIGHT`), as `flamelens collapse` prints it and as
 * runs are exported. Lines are sorted by byte order (as `sort` with LC_ALL=C does), weights are
 * integers.
 */
import type { Profile } from './types';

/**
 * The label of a frame in folded output: the producer's text for perf script and folded input;
 * `NAME FILE:LINE:COLUMN` for JavaScript frames with a location; the bare name otherwise.
 *
 * A label is one frame of one line: names hold no line breaks (importers write them as `\n`,
 * see visible-text.ts), and a `;` in a name or path — which would split the frame in two — is
 * written `:`, as stackcollapse tools do with names they read. (Labels read from folded input
 * cannot hold one; perf script labels are kept as `stackcollapse-perf.pl` prints them.)
 */
export function collapseLabel(p: Profile, frame: number): string {
  const f = p.frames;
  if (p.format === 'folded' || p.format === 'perf-script') return f.label[frame]!;
  const name = f.name[frame]!;
  const file = f.file[frame]!;
  const line = f.line[frame]!;
  const label = file === '' || line === 0 ? name : `${name} ${file}:${line}:${f.column[frame]!}`;
  return label.includes(';') ? label.replace(/;/g, ':') : label;
}

function compareBytes(a: string, b: string): number {
  // UTF-16 order equals UTF-8 byte order except around surrogates; compare code points to be exact.
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

export interface CollapseOptions {
  /** leave out the synthetic idle frames `(idle)`, `(program)`… (default: keep) */
  omitNames?: Set<string>;
}

/** One line per distinct stack with non-zero self weight. Stacks are merged by label. */
export function collapse(p: Profile, weights: Float64Array = p.tree.self, opts: CollapseOptions = {}): string[] {
  const t = p.tree;
  const labels = new Array<string>(p.frames.length);
  for (let i = 0; i < labels.length; i++) labels[i] = collapseLabel(p, i);
  const path = new Array<string>(t.length);
  // whether the path holds a frame: an empty label is a frame too (`;a` is not `a`)
  const framed = new Uint8Array(t.length);
  const merged = new Map<string, number>();
  path[0] = '';
  for (let i = 1; i < t.length; i++) {
    const parent = t.parent[i]!;
    const label = labels[t.frame[i]!]!;
    const skip = opts.omitNames?.has(label) ?? false;
    path[i] = skip ? path[parent]! : framed[parent] ? `${path[parent]};${label}` : label;
    framed[i] = skip ? framed[parent]! : 1;
    const w = weights[i]!;
    if (w !== 0 && framed[i] && path[i] !== '') merged.set(path[i]!, (merged.get(path[i]!) ?? 0) + w);
  }
  const keys = [...merged.keys()].sort(compareBytes);
  return keys.map((k) => `${k} ${Math.round(merged.get(k)!)}`);
}
