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

/** Byte order of two strings in UTF-8, as `sort` with LC_ALL=C orders them. */
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

/**
 * How the walk below keeps a stack's text: `extend` gives the path of `label` under `parent`
 * (`root` for the root's children), `blank` says a path is the empty label alone, which is no
 * stack.
 */
interface Paths<P> {
  root: P;
  extend(parent: P, label: number): P;
  blank(path: P): boolean;
}

/**
 * Each distinct stack with non-zero self weight, in byte order, as its path (see `Paths`); its
 * weight is `weight.value` when it is given. Stacks are merged by label.
 *
 * The stacks come from a walk of the call tree, so that no stack's text is kept past its line:
 * the nodes that share a path (the same labels all the way down) are taken together, and a
 * group's children are grouped by label in turn. In byte order a stack `X;L` may not come just
 * before the stacks under it: `fn1;a` follows `fn10` (`;` sorts after digits). So each child
 * group has two places among its siblings: its own line, at its label, and the lines under it,
 * at its label followed by `;`. No line of another sibling falls between those (labels hold no
 * `;`, see `collapseLabel`), so the two places sorted among the siblings' give byte order. A
 * path is extended when its place is reached, and a group's children are walked before its next
 * sibling's place: a path may be kept in one buffer, each label written over the last one's.
 */
function* collapsedStacks<P>(
  p: Profile,
  weights: Float64Array,
  labelOf: readonly string[],
  labelId: Int32Array,
  paths: Paths<P>,
  weight: { value: number },
): Generator<P, void, undefined> {
  const t = p.tree;
  const { end, frame } = t;
  // the two places of every label ("label", and "label;" for the lines under it) in byte order:
  // `order[r]` is the place of rank r (label id × 2, + 1 for the lines under it)
  const order = Int32Array.from({ length: labelOf.length * 2 }, (_, i) => i);
  const key = (place: number) => labelOf[place >> 1]! + (place & 1 ? ';' : '');
  order.sort((a, b) => compareBytes(key(a), key(b)));
  const rank = new Int32Array(order.length);
  order.forEach((place, r) => (rank[place] = r));

  // Everything the walk keeps is in typed arrays used as stacks, cut back as it returns from a
  // group's children (a walk of objects and arrays made the engine's young generation grow by
  // 20 MB for a 1.5 M-node tree): the nodes of each group (`members`), the groups (where their
  // nodes start, how many, their label), and each level's places (a rank, and its group).
  let members = new Int32Array(1024);
  let groupStart = new Int32Array(256);
  let groupSize = new Int32Array(256);
  let groupLabel = new Int32Array(256);
  let groupNext = new Int32Array(256);
  let groupParent = new Uint8Array(256);
  let placeRank = new Int32Array(256);
  let placeGroup = new Int32Array(256);
  let memberTop = 0;
  let groupTop = 0;
  let placeTop = 0;
  const grown = <A extends Int32Array | Uint8Array>(a: A, n: number): A => {
    if (n <= a.length) return a;
    const next = new (a.constructor as new (n: number) => A)(Math.max(n, a.length * 2));
    next.set(a);
    return next;
  };
  // children grouped by label without a map: the group of a label met in the current call
  const groupOf = new Int32Array(labelOf.length);
  const stamp = new Int32Array(labelOf.length);
  let call = 0;

  /** Groups the children of the nodes of `members[from, from + count)` by label, and puts their places on the stack, in order. */
  const placesUnder = (from: number, count: number): void => {
    call++;
    const firstGroup = groupTop;
    for (let k = from; k < from + count; k++) {
      const n = members[k]!;
      for (let c = n + 1; c < end[n]!; c = end[c]!) {
        const id = labelId[frame[c]!]!;
        let g: number;
        if (stamp[id] === call) g = groupOf[id]!;
        else {
          stamp[id] = call;
          g = groupTop++;
          if (g >= groupStart.length) {
            groupStart = grown(groupStart, g + 1);
            groupSize = grown(groupSize, g + 1);
            groupLabel = grown(groupLabel, g + 1);
            groupNext = grown(groupNext, g + 1);
            groupParent = grown(groupParent, g + 1);
          }
          groupOf[id] = g;
          groupLabel[g] = id;
          groupSize[g] = 0;
          groupParent[g] = 0;
        }
        groupSize[g]!++;
        if (end[c]! > c + 1) groupParent[g] = 1;
      }
    }
    let at = memberTop;
    for (let g = firstGroup; g < groupTop; g++) {
      groupStart[g] = groupNext[g] = at;
      at += groupSize[g]!;
    }
    members = grown(members, at);
    for (let k = from; k < from + count; k++) {
      const n = members[k]!;
      for (let c = n + 1; c < end[n]!; c = end[c]!) members[groupNext[groupOf[labelId[frame[c]!]!]!]!++] = c;
    }
    memberTop = at;
    const firstPlace = placeTop;
    placeRank = grown(placeRank, placeTop + (groupTop - firstGroup) * 2);
    placeGroup = grown(placeGroup, placeRank.length);
    for (let g = firstGroup; g < groupTop; g++) {
      placeRank[placeTop++] = rank[groupLabel[g]! * 2]!;
      if (groupParent[g]) placeRank[placeTop++] = rank[groupLabel[g]! * 2 + 1]!;
    }
    if (placeTop - firstPlace > 1) placeRank.subarray(firstPlace, placeTop).sort();
    for (let i = firstPlace; i < placeTop; i++) placeGroup[i] = groupOf[order[placeRank[i]!]! >> 1]!;
  };

  /** A level of the walk: the places of one group's children, the next to visit, and where the stacks stood before them. */
  interface Level {
    start: number;
    next: number;
    end: number;
    members: number;
    groups: number;
    path: P;
  }
  /** The level of the children of `members[from, from + count)`, its places put on the stack. */
  const levelUnder = (from: number, count: number, path: P): Level => {
    const below = { start: placeTop, next: placeTop, end: placeTop, members: memberTop, groups: groupTop, path };
    placesUnder(from, count);
    below.end = placeTop;
    return below;
  };
  members[memberTop++] = 0;
  const levels: Level[] = [levelUnder(0, 1, paths.root)];
  while (levels.length > 0) {
    const top = levels[levels.length - 1]!;
    if (top.next === top.end) {
      levels.pop();
      memberTop = top.members;
      groupTop = top.groups;
      placeTop = top.start;
      continue;
    }
    const i = top.next++;
    const place = order[placeRank[i]!]!;
    const g = placeGroup[i]!;
    const path = paths.extend(top.path, place >> 1);
    if (place & 1) {
      levels.push(levelUnder(groupStart[g]!, groupSize[g]!, path));
      continue;
    }
    let sum = 0;
    let weighed = false;
    for (let k = groupStart[g]!; k < groupStart[g]! + groupSize[g]!; k++) {
      const w = weights[members[k]!]!;
      if (w !== 0) weighed = true;
      sum += w;
    }
    // (an empty label alone is no stack; under another frame it is one: `;a` is not `a`)
    if (weighed && !paths.blank(path)) {
      weight.value = Math.round(sum);
      yield path;
    }
  }
}

/** Each distinct label once (`labelOf`), and the label of each frame (`labelId`). */
function labelsOf(p: Profile, text: (label: string) => string): { labelOf: string[]; labelId: Int32Array } {
  const ids = new Map<string, number>();
  const labelOf: string[] = [];
  const labelId = new Int32Array(p.frames.length);
  for (let f = 0; f < p.frames.length; f++) {
    const label = text(collapseLabel(p, f));
    let id = ids.get(label);
    if (id === undefined) ids.set(label, (id = labelOf.push(label) - 1));
    labelId[f] = id;
  }
  return { labelOf, labelId };
}

/**
 * Each line of folded output (`stack weight`, no line break), one per distinct stack with
 * non-zero self weight, in byte order; stacks are merged by label (see `collapsedStacks`).
 */
export function* collapsedLines(p: Profile, weights: Float64Array): Generator<string, void, undefined> {
  const { labelOf, labelId } = labelsOf(p, (label) => label);
  const weight = { value: 0 };
  const paths: Paths<string | undefined> = {
    root: undefined,
    extend: (parent, label) => (parent === undefined ? labelOf[label]! : `${parent};${labelOf[label]!}`),
    blank: (path) => path === '',
  };
  for (const path of collapsedStacks(p, weights, labelOf, labelId, paths, weight)) yield `${path!} ${weight.value}`;
}

/**
 * Folded output as UTF-8, in pieces of about `pieceBytes` that end at a line's end: the same
 * lines as `collapsedLines`, each label passed through `text` first (a terminal's escapes, say:
 * see visible-text.ts), written into the piece from one buffer that holds the current path,
 * without a string per line. A piece is a new array unless the caller, asking for the next one
 * with `next(true)`, says it is done with the last: its memory then holds the next.
 */
export function* collapsedBytes(
  p: Profile,
  weights: Float64Array,
  pieceBytes: number,
  text: (label: string) => string = (label) => label,
): Generator<Uint8Array, void, boolean | undefined> {
  const { labelOf, labelId } = labelsOf(p, text);
  const encoder = new TextEncoder();
  const labelBytes = labelOf.map((label) => encoder.encode(label));
  let path = new Uint8Array(4096);
  const room = (n: number) => {
    if (n <= path.length) return;
    const next = new Uint8Array(Math.max(n, path.length * 2));
    next.set(path);
    path = next;
  };
  const SEMICOLON = 0x3b;
  // a path is its length in `path`; -1 is the root's
  const paths: Paths<number> = {
    root: -1,
    extend(parent, label) {
      const bytes = labelBytes[label]!;
      const at = parent < 0 ? 0 : parent + 1;
      room(at + bytes.length);
      if (parent >= 0) path[parent] = SEMICOLON;
      path.set(bytes, at);
      return at + bytes.length;
    },
    blank: (length) => length === 0,
  };
  const weight = { value: 0 };
  let piece = new Uint8Array(pieceBytes);
  let used = 0;
  for (const length of collapsedStacks(p, weights, labelOf, labelId, paths, weight)) {
    const digits = String(weight.value);
    const need = length + 2 + digits.length;
    if (used + need > piece.length) {
      const free = used > 0 ? yield piece.subarray(0, used) : true;
      if (!free || need > piece.length) piece = new Uint8Array(Math.max(pieceBytes, need));
      used = 0;
    }
    piece.set(path.subarray(0, length), used);
    used += length;
    piece[used++] = 0x20;
    for (let i = 0; i < digits.length; i++) piece[used++] = digits.charCodeAt(i);
    piece[used++] = 0x0a;
  }
  if (used > 0) yield piece.subarray(0, used);
}

/** The lines of folded output (see `collapsedLines`). */
export function collapse(p: Profile, weights: Float64Array = p.tree.self): string[] {
  return [...collapsedLines(p, weights)];
}
