/**
 * Interning frames: `FrameTableBuilder` gives each distinct frame an id and makes the `FrameTable`.
 */
import { categorize, packageOf } from './categorize';
import { frameKey } from './frame-key';
import type { BuildBudget } from './budget';
import { GrowInt32 } from './grow';

/** What a frame takes besides its strings: its entries in the index and the columns. */
const FRAME_BYTES = 96;
import { Category, Tier } from './types';
import type { FrameTable } from './types';
import { visibleText } from './visible-text';

export interface FrameInput {
  /**
   * function or symbol name, without addresses; a leading V8 tier marker (`*fn`) is read into
   * `tier` unless `tier` is given, in which case the name is kept as it is
   */
  name: string;
  file?: string;
  /** 1-based; 0 or absent when unknown */
  line?: number;
  column?: number;
  tier?: Tier;
  /** overrides the classifier */
  category?: Category;
  /** shared object for native frames, used by the classifier */
  dso?: string;
  /** the producer's exact text for the frame, when the format's output must reproduce it (perf script, folded) */
  label?: string;
}

const TIER_BY_MARKER: Record<string, Tier> = {
  '~': Tier.Interpreted,
  '^': Tier.Baseline,
  '+': Tier.Maglev,
  '*': Tier.Optimized,
};

/** Reads a V8 tier marker off the front of a JS function name: `*handler` → [Optimized, 'handler']. */
export function splitTier(name: string): [Tier, string] {
  const t = TIER_BY_MARKER[name.charAt(0)];
  if (t !== undefined && name.length > 1 && name.charAt(1) !== ' ') return [t, name.slice(1)];
  return [Tier.Unknown, name];
}

/**
 * A copy of `s` that does not keep the text it was cut from alive. V8 makes a slice of a long
 * string a view into it, so a frame name taken from a line would otherwise hold on to the whole
 * piece of text (64 KiB) the line came in, and a profile would grow with its file instead of with its
 * distinct frames. For what is kept (names, cache keys), not for every line.
 */
export function detached(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

/** Largest line or column the Int32Array columns hold; past it a position is unknown (0). */
const MAX_POSITION = 2 ** 31 - 1;

/** A 1-based line or column as stored: 0 when unknown, not positive or too large for the column. */
function position(v: number | undefined): number {
  return v !== undefined && v >= 1 && v <= MAX_POSITION ? Math.trunc(v) : 0;
}

export class FrameTableBuilder {
  /**
   * Frames by all their fields, joined into one key: a flat string (a template literal would
   * make a tree of string pieces, kept for every frame, that the collector walks again and again).
   */
  private readonly index = new Map<string, number>();
  private readonly name: string[] = [];
  private readonly file: string[] = [];
  private readonly line = new GrowInt32();
  private readonly column = new GrowInt32();
  /** the category an importer gave, or -1: worked out in `finish` from the name, file and dso */
  private readonly givenCategory: number[] = [];
  private readonly dso: string[] = [];
  private readonly tier: number[] = [];
  private readonly label: string[] = [];

  /** `budget`: what the frames' names and columns are charged to (see ./budget) */
  constructor(private readonly budget?: BuildBudget) {
    this.line.budget = this.column.budget = budget;
  }

  get length(): number {
    return this.name.length;
  }

  /** The label of frame `id` as kept (a copy that holds on to nothing else). */
  labelOf(id: number): string {
    return this.label[id]!;
  }

  intern(f: FrameInput): number {
    let tier = f.tier;
    let name = f.name;
    if (tier === undefined) [tier, name] = splitTier(name);
    if (name === '') name = '(anonymous)';
    let file = f.file ?? '';
    const line = position(f.line);
    const column = position(f.column);
    let label = f.label ?? '';
    const category = f.category ?? -1;
    const id = [name, file, line, column, tier, category, label].join('\u0000');
    const known = this.index.get(id);
    if (known !== undefined) return known;
    const n = this.name.length;
    this.index.set(id, n);
    // Shown as text that says what it holds (control and bidi characters as escapes): see visible-text.ts.
    const kept = detached(visibleText(name));
    // a label equal to the name (folded stacks) is kept once
    label = label === name ? kept : detached(visibleText(label));
    name = kept;
    file = detached(visibleText(file));
    // the strings (two bytes a character at most) and a frame's share of the index and columns
    this.budget?.charge(2 * (id.length + name.length + file.length + label.length) + FRAME_BYTES);
    this.name.push(name);
    this.file.push(file);
    this.line.push(line);
    this.column.push(column);
    this.givenCategory.push(category);
    this.dso.push(f.category === undefined && f.dso ? detached(f.dso) : '');
    this.tier.push(tier);
    this.label.push(label);
    return n;
  }

  /**
   * The table. What is derived from a frame's name and file (category, package, key) is worked
   * out here, in one pass: while a big file is read, the code that reads its lines is what the
   * engine should be compiling, not code that runs once per distinct frame.
   */
  finish(): FrameTable {
    const n = this.name.length;
    const category = new Uint8Array(n);
    const pkg = new Array<string>(n);
    const key = new Array<string>(n);
    const files = new Map<string, string>();
    for (let i = 0; i < n; i++) {
      const name = this.name[i]!;
      const file = this.file[i]!;
      const given = this.givenCategory[i]!;
      const c = given >= 0 ? given : categorize(name, file, this.dso[i]!);
      category[i] = c;
      pkg[i] = c === Category.Dependency ? packageOf(file) : '';
      key[i] = frameKey(name, file, files);
    }
    return {
      length: n,
      name: this.name,
      file: this.file,
      line: this.line.finish(),
      column: this.column.finish(),
      category,
      tier: Uint8Array.from(this.tier),
      pkg,
      key,
      label: this.label,
    };
  }
}
