/**
 * pprof: the `perftools.profiles.Profile` protocol buffer
 * (reference: https://github.com/google/pprof/blob/main/proto/profile.proto), usually gzipped
 * (`.pb.gz`; the source layer has already undone the gzip). Written by Go's runtime/pprof, by
 * `@datadog/pprof` for Node.js (what dd-trace's profiler uploads), by Pyroscope and others.
 * Decoded with `pprof-format`; pprof files are small and there is no streaming decoder, so the
 * bytes are gathered first.
 *
 * A profile carries several values per sample (`sample_type`); one is shown. The choice, in order:
 * 1. the producer's `default_sample_type`, when it names one of the types;
 * 2. a sample count (`samples`/`sample`, unit `count`): Go CPU, Datadog Node time profiles —
 *    what every other sampled format here shows;
 * 3. CPU time (`cpu`), then wall time (`wall`), both nanoseconds;
 * 4. memory in use or allocated (`inuse_space`, `space` as Pyroscope names it, `alloc_space`), bytes;
 * 5. otherwise the first type.
 * Stacks come from the sample's locations (leaf first, so reversed); a location's lines are its
 * inlined frames, innermost first. Labels are not used.
 */
import { Profile as PprofProfile } from 'pprof-format';
import { CallTreeBuilder, type FrameInput, FrameTableBuilder, finishProfile } from '../../../model/builders';
import { Category, MAX_WEIGHT, type Profile, type RunMeta, Tier, type Unit } from '../../../model/types';
import { ImportError } from '../../errors';
import type { ImportContext, Importer } from '../../importer';

type Numeric = number | bigint;

/** int64 fields come back unsigned when they need a bigint; read them as signed. */
function num(v: Numeric | undefined): number {
  if (v === undefined) return 0;
  return typeof v === 'bigint' ? Number(BigInt.asIntN(64, v)) : v;
}

/** Nanoseconds to microseconds; epoch nanoseconds exceed 2^53, so divide before converting. */
function micros(v: Numeric): number {
  return typeof v === 'bigint' ? Number(v / 1000n) + Number(v % 1000n) / 1000 : v / 1000;
}

/** Field tags of `Profile` (field << 3 | wire type): the only bytes a pprof file can start with. */
const PROFILE_TAGS = new Set([0x0a, 0x12, 0x1a, 0x22, 0x2a, 0x32, 0x38, 0x40, 0x48, 0x50, 0x5a, 0x60, 0x68, 0x70, 0x78]);
const PPROF_NAME = /\.(pb|pprof|prof)(\.gz)?$/i;

/**
 * Every writer puts `sample_type` (field 1, bytes) first: 0x0a, its length, then a `ValueType` of
 * two small varints, `type` (0x08) and `unit` (0x10), e.g. `0a 04 08 01 10 02 0a 04 08 03 10 04 12 …`
 * from @datadog/pprof. `head` is that binary read as UTF-8, so a byte ≥ 0x80 may not map to one
 * character; the structure is checked only where every byte is below 0x80.
 */
function looksLikeProfile(head: string): boolean {
  if (head.charCodeAt(0) !== 0x0a || head.charCodeAt(2) !== 0x08) return false;
  const len = head.charCodeAt(1);
  if (len < 4 || len > 0x40) return false;
  const body = head.slice(2, 2 + len + 1);
  if (body.length < len + 1) return false;
  for (let i = 0; i < body.length; i++) if (body.charCodeAt(i) >= 0x80) return true; // multi-byte varints: trust the prefix
  return body.includes('\u0010') && PROFILE_TAGS.has(body.charCodeAt(len));
}

/** A binary head that starts with a `Profile` field tag, for files whose name says pprof. */
function binaryWithProfileTag(head: string): boolean {
  if (!PROFILE_TAGS.has(head.charCodeAt(0))) return false;
  const sample = head.slice(0, 256);
  return /[\u0000-\u0008\u000e-\u001f\ufffd]/.test(sample);
}

/**
 * The largest pprof profile read (after gzip is undone). A profile is decoded whole, and decoded
 * it takes several times its size; the profilers that write pprof for Node.js write a few MB. A
 * small gzip file that inflates past this is refused before it can take the machine's memory.
 */
export const MAX_PPROF_BYTES = 256 * 1024 * 1024;

async function collect(chunks: AsyncIterable<Uint8Array>, file: string): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let n = 0;
  for await (const c of chunks) {
    parts.push(c);
    n += c.length;
    if (n > MAX_PPROF_BYTES)
      throw new ImportError({
        file,
        offset: MAX_PPROF_BYTES,
        message: `the pprof data is larger than ${MAX_PPROF_BYTES / 1024 / 1024} MiB (unpacked); no profiler writes one that large, so it is not read`,
      });
  }
  const out = new Uint8Array(n);
  let o = 0;
  for (const c of parts) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

interface Choice {
  index: number;
  unit: Unit;
  /** multiplies values into `unit` */
  scale: number;
}

const PREFERENCE = ['samples', 'sample', 'cpu', 'wall', 'inuse_space', 'space', 'alloc_space'];

function unitOf(type: string, unit: string): { unit: Unit; scale: number } {
  switch (unit) {
    case 'count':
      return { unit: type === 'samples' || type === 'sample' ? 'samples' : 'events', scale: 1 };
    case 'nanoseconds':
      return { unit: 'nanoseconds', scale: 1 };
    case 'microseconds':
      return { unit: 'microseconds', scale: 1 };
    case 'milliseconds':
      return { unit: 'microseconds', scale: 1e3 };
    case 'seconds':
      return { unit: 'microseconds', scale: 1e6 };
    case 'bytes':
      return { unit: 'bytes', scale: 1 };
    default:
      return { unit: 'events', scale: 1 };
  }
}

function chooseValue(types: { type: string; unit: string }[], defaultType: string): Choice {
  let index = defaultType === '' ? -1 : types.findIndex((t) => t.type === defaultType);
  for (let k = 0; index < 0 && k < PREFERENCE.length; k++) {
    const want = PREFERENCE[k]!;
    // a `count` of samples, not `samples` in some other unit
    index = types.findIndex((t) => t.type === want && (k > 1 || t.unit === 'count'));
  }
  if (index < 0) index = 0;
  const t = types[index]!;
  return { index, ...unitOf(t.type, t.unit) };
}

// @datadog/pprof names anonymous functions by position: `(anonymous:L#171:C#36)` or `(anonymous:L#9)`.
const DD_ANONYMOUS = /^\(anonymous:L#(\d+)(?::C#(\d+))?\)$/;

const SPECIAL_CATEGORY: Record<string, Category> = {
  // @datadog/pprof's names for V8's `(garbage collector)` and for time in other threads
  'Garbage Collection': Category.GC,
  'Non JS threads activity': Category.Native,
};

/**
 * Walks the top-level fields of the message and returns the offset of the first one that runs
 * past the end, or -1. pprof-format decodes a cut-off buffer without complaint (a length-delimited
 * field just comes out shorter), and a cut-off profile loses its string table, which comes late.
 */
function truncatedAt(bytes: Uint8Array): number {
  let i = 0;
  const varint = (): number => {
    let v = 0;
    let mul = 1;
    for (;;) {
      if (i >= bytes.length) return -1;
      const b = bytes[i++]!;
      v += (b & 0x7f) * mul;
      if (b < 0x80) return v;
      mul *= 128;
      if (mul > 2 ** 63) return -1;
    }
  };
  while (i < bytes.length) {
    const field = i;
    const tag = varint();
    if (tag < 0) return field;
    const wire = tag % 8;
    if (wire === 0) {
      if (varint() < 0) return field;
    } else if (wire === 2) {
      const len = varint();
      if (len < 0 || i + len > bytes.length) return field;
      i += len;
    } else if (wire === 1 || wire === 5) {
      i += wire === 1 ? 8 : 4;
      if (i > bytes.length) return field;
    } else return field;
  }
  return -1;
}

/** The message, checked for a cut-off end first (see `truncatedAt`). */
function decodeProfile(bytes: Uint8Array, file: string): PprofProfile {
  const cut = truncatedAt(bytes);
  if (cut >= 0)
    throw new ImportError({
      file,
      offset: cut,
      message: `the pprof data ends inside a field that starts here (${bytes.length} bytes in all): the file is cut off or damaged`,
    });
  try {
    return PprofProfile.decode(bytes);
  } catch (e) {
    throw new ImportError({ file, message: `not a readable pprof protocol buffer (${(e as Error).message})` });
  }
}

type StringOf = (i: Numeric | undefined) => string;

/** The frames of the profile's locations, each interned once. */
class LocationFrames {
  private readonly functions = new Map<number, PprofProfile['function'][number]>();
  private readonly mappings = new Map<number, string>();
  private readonly locations = new Map<number, PprofProfile['location'][number]>();
  /** frame ids of a location, innermost inlined frame first */
  private readonly byLocation = new Map<number, number[]>();

  constructor(
    prof: PprofProfile,
    private readonly str: StringOf,
    private readonly frames: FrameTableBuilder,
  ) {
    for (const f of prof.function) this.functions.set(num(f.id), f);
    for (const m of prof.mapping) this.mappings.set(num(m.id), str(m.filename));
    for (const l of prof.location) this.locations.set(num(l.id), l);
  }

  of(id: number): number[] {
    const known = this.byLocation.get(id);
    if (known) return known;
    const loc = this.locations.get(id);
    const ids = !loc
      ? [this.frames.intern({ name: `(unknown location ${id})`, tier: Tier.Unknown, category: Category.Other })]
      : loc.line.length === 0
        ? [this.address(loc)]
        : loc.line.map((line) => this.frames.intern(this.lineFrame(line)));
    this.byLocation.set(id, ids);
    return ids;
  }

  /** A location not symbolized: an address in a mapped binary. */
  private address(loc: PprofProfile['location'][number]): number {
    const dso = this.mappings.get(num(loc.mappingId)) ?? '';
    const name = `0x${(typeof loc.address === 'bigint' ? loc.address : BigInt(loc.address)).toString(16)}`;
    // A native addon under node_modules is its package's code; other binaries are native.
    const category = dso === '' ? Category.Other : /node_modules[\\/]/.test(dso) ? Category.Dependency : Category.Native;
    return this.frames.intern({ name, file: dso, dso, tier: Tier.Unknown, category });
  }

  private lineFrame(line: PprofProfile['location'][number]['line'][number]): FrameInput {
    const { str } = this;
    const fn = this.functions.get(num(line.functionId));
    let name = fn ? str(fn.name) || str(fn.systemName) : '';
    const file = fn ? str(fn.filename) : '';
    let lineNo = num(line.line);
    let column = num(line.column);
    // @datadog/pprof's `columnNumbers: 'pack'` puts the column in the high 32 bits of `line`.
    if (lineNo >= 2 ** 32) {
      column = Math.floor(lineNo / 2 ** 32);
      lineNo %= 2 ** 32;
    }
    const anon = DD_ANONYMOUS.exec(name);
    if (anon) {
      name = '';
      if (lineNo === 0) lineNo = Number(anon[1]);
      if (column === 0 && anon[2]) column = Number(anon[2]);
    }
    const input: FrameInput = { name, file, line: lineNo, column, tier: Tier.Unknown };
    const special = Object.hasOwn(SPECIAL_CATEGORY, name) ? SPECIAL_CATEGORY[name] : undefined;
    if (special !== undefined && file === '') input.category = special;
    return input;
  }
}

/** Adds every sample's stack with its chosen value; counts the values left out. */
function addSamples(prof: PprofProfile, choice: Choice, locations: LocationFrames, frames: FrameTableBuilder, tree: CallTreeBuilder) {
  const stack: number[] = [];
  let negative = 0;
  let tooLarge = 0;
  for (const s of prof.sample) {
    const v = num(s.value[choice.index]) * choice.scale;
    if (v === 0) continue;
    if (!(v > 0)) {
      negative++;
      continue;
    }
    if (v > MAX_WEIGHT) {
      tooLarge++;
      continue;
    }
    stack.length = 0;
    for (let i = s.locationId.length - 1; i >= 0; i--) {
      const ids = locations.of(num(s.locationId[i]));
      for (let k = ids.length - 1; k >= 0; k--) stack.push(ids[k]!);
    }
    if (stack.length === 0) stack.push(frames.intern({ name: '(no stack)', tier: Tier.Unknown, category: Category.Other }));
    tree.addStack(stack, v);
  }
  return { negative, tooLarge };
}

/** The run's facts: the value shown and the others, its time and sampling period. */
function pprofMeta(
  prof: PprofProfile,
  str: StringOf,
  types: { type: string; unit: string }[],
  choice: Choice,
  warnings: string[],
): RunMeta {
  const meta: RunMeta = {
    producer: 'pprof',
    eventType: `${types[choice.index]!.type}/${types[choice.index]!.unit}`,
    otherEventTypes: types.filter((_, i) => i !== choice.index).map((t) => `${t.type}/${t.unit}`),
    warnings,
  };
  const start = micros(prof.timeNanos);
  if (start > 0) {
    meta.startTime = start;
    const duration = micros(prof.durationNanos);
    if (duration > 0) meta.endTime = start + duration;
  }
  const period = num(prof.period);
  const periodUnit = prof.periodType ? str(prof.periodType.unit) : '';
  if (period > 0 && (periodUnit === 'nanoseconds' || periodUnit === 'microseconds'))
    meta.sampleInterval = periodUnit === 'nanoseconds' ? period / 1000 : period;
  return meta;
}

async function parse(ctx: ImportContext): Promise<Profile> {
  const prof = decodeProfile(await collect(ctx.source.chunks(), ctx.file), ctx.file);
  const strings = prof.stringTable.strings;
  const str: StringOf = (i) => strings[num(i)] ?? '';
  const types = prof.sampleType.map((t) => ({ type: str(t.type), unit: str(t.unit) }));
  // Index 0 is always '', so a real profile has at least its sample type names besides.
  if (types.length === 0 || strings.length <= 1)
    throw new ImportError({ file: ctx.file, message: 'not a pprof profile: it declares no sample types or has no string table' });
  const choice = chooseValue(types, str(prof.defaultSampleType));
  const type = shownType(types[choice.index]!.type);

  const frames = new FrameTableBuilder(ctx.budget);
  const tree = new CallTreeBuilder(ctx.budget);
  const { negative, tooLarge } = addSamples(prof, choice, new LocationFrames(prof, str, frames), frames, tree);
  if (tree.nodeCount === 1) throw new ImportError({ file: ctx.file, message: `the profile has no samples with a ${type} value` });
  const warnings: string[] = [];
  if (negative > 0) warnings.push(`${negative} sample(s) with a negative ${type} value (a difference profile?) were left out`);
  if (tooLarge > 0) warnings.push(`${tooLarge} sample(s) with a ${type} value past 2^53 were left out`);
  const kind = choice.unit === 'bytes' ? 'allocations' : 'sampled';
  const meta = pprofMeta(prof, str, types, choice, warnings);
  return finishProfile({ name: ctx.file, format: 'pprof', kind, unit: choice.unit, frames, tree, meta });
}

/**
 * A sample type's name as messages show it: it comes from the file's string table and may hold
 * anything, so it is shortened, and quoted with its invisible characters escaped unless it is
 * plain printable text.
 */
function shownType(t: string): string {
  const s = t.length > 40 ? `${t.slice(0, 40)}…` : t;
  if (s !== '' && /^[\x20-\x7e…]*$/.test(s)) return s;
  return JSON.stringify(s).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export const pprofImporter: Importer = {
  id: 'pprof',
  label: 'pprof protocol buffer (.pb.gz: Go, @datadog/pprof, Pyroscope)',
  extensions: ['.pb.gz', '.pb', '.pprof', '.prof'],
  sniff(head, fileName) {
    if (looksLikeProfile(head)) return true;
    return PPROF_NAME.test(fileName) && binaryWithProfileTag(head);
  },
  parse,
};
