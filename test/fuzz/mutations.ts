/**
 * Mutation fuzzing: files damaged the ways files get damaged — cut off anywhere or at a structural
 * boundary, bytes flipped, inserted, deleted or duplicated, numbers replaced by huge, negative, -0
 * or non-numbers, numbers and lines swapped (timestamps out of order), strings swapped for keys
 * and prototype names, 100,000-deep brackets and 200,000-character runs inserted, pieces of other
 * files spliced in. Every step is drawn by fast-check, so a failing case shrinks. How the damaged
 * bytes then reach the importer (encoding, gzip, chunking, name) is in ./delivery.
 */
import fc from 'fast-check';

export interface Seed {
  name: string;
  bytes: Uint8Array;
}

/** gzip compression, supplied by the caller (Node's zlib in the tests; `shared/` has no sync gzip). */
export type Gzip = (bytes: Uint8Array) => Uint8Array;

// ---------------------------------------------------------------------------------------------
// Bytes as Latin-1 strings: one character per byte, so string tools work on any bytes.

export function latin1(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
}

export function fromLatin1(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}

const utf8 = new TextEncoder();

/** Text (any UTF-16, lone surrogates become U+FFFD) as UTF-8 bytes in a Latin-1 string. */
export function utf8Latin1(text: string): string {
  return latin1(utf8.encode(text));
}

// ---------------------------------------------------------------------------------------------
// Mutations.

/** Bytes that mean something to some parser. */
const SPECIAL_BYTES = [
  0x00, 0xff, 0x7f, 0x80, 0x0a, 0x0d, 0x09, 0x20, 0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a, 0x3b, 0x28, 0x29, 0x23, 0xc0, 0xef, 0xfe,
];

/** Tokens worth inserting: JSON structure, separators, literals JSON does not allow, odd characters. */
const TOKENS = [
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  '"',
  '\\',
  '\\u',
  'null',
  'true',
  '-',
  '1e400',
  'NaN',
  'Infinity',
  '-0',
  '\n',
  '\r\n',
  '\n\n',
  '\r',
  ';',
  ';;',
  ' ',
  '\t',
  '#',
  '(',
  ')',
  '0x',
  '\u0000',
  '\ufeff',
  '\u2028',
  '"__proto__"',
  '"constructor"',
  '"length"',
  '[]',
  '{}',
  '[[[[',
  ']]]]',
  '{"a":',
  '\tffffffff81000000 func (dso)\n',
  'node 1 [000] 1.0: 1 cpu-clock:\n',
  '<html>',
  'visualizer(',
  ' (',
  '((',
  ':1',
  'x ',
  'u:',
];

/** Replacements for a number. */
const NUMBERS = [
  '1e308',
  '-1e308',
  '1e400',
  '-1e400',
  '1.7976931348623157e308',
  '5e-324',
  '99999999999999999999999999999',
  '9'.repeat(400),
  'NaN',
  'Infinity',
  '-0',
  '0',
  '-1',
  '-2147483649',
  '2147483648',
  '4294967296',
  '9007199254740993',
  '0.5',
  '1.',
  '.5',
  '1e5',
  '"7"',
  'null',
  'true',
  '[]',
  '{}',
  '"x"',
];

/** Replacements for a string's content: prototype keys, format keys and values, long and odd text. */
const STRINGS = [
  '',
  '__proto__',
  'constructor',
  'length',
  'toString',
  'valueOf',
  '(root)',
  '(program)',
  '(idle)',
  '(garbage collector)',
  'nodes',
  'head',
  'children',
  'parent',
  'id',
  'samples',
  'timeDeltas',
  'timestamps',
  'callFrame',
  'selfSize',
  'traceEvents',
  'ph',
  'ts',
  'dur',
  'B',
  'E',
  'X',
  'b',
  'e',
  'M',
  'P',
  'Profile',
  'ProfileChunk',
  'CpuProfile',
  'cpuProfile',
  'stackFrames',
  'sf',
  'code',
  'ticks',
  's',
  'tm',
  'JS',
  'CPP',
  'SHARED_LIB',
  'CODE',
  'Opt',
  'merged',
  'unmerged',
  'top',
  'S',
  '\\ud800',
  '\\u0000',
  '\\x',
  '\\',
  'x'.repeat(70_000),
];

export type Mutation =
  | { op: 'truncate'; at: number }
  | { op: 'cut-at-boundary'; boundary: number; k: number; before: boolean }
  | { op: 'flip-bit'; at: number; bit: number }
  | { op: 'set-byte'; at: number; value: number }
  | { op: 'insert-bytes'; at: number; bytes: number[] }
  | { op: 'insert-token'; at: number; token: number; times: number }
  | { op: 'delete'; at: number; length: number }
  | { op: 'duplicate'; from: number; length: number; to: number; times: number }
  | { op: 'number'; k: number; value: number }
  | { op: 'swap-numbers'; a: number; b: number }
  | { op: 'string'; k: number; value: number }
  | { op: 'swap-lines'; a: number; b: number }
  | { op: 'nest'; at: number; depth: number; close: boolean; object: boolean }
  | { op: 'splice'; seed: number; from: number; length: number; at: number }
  | { op: 'long'; k: number; unit: number; length: number };

const BOUNDARIES = [',', '}', ']', '\n', '"', ':', ' ', '{', '[', ';', '\t', '('];

/**
 * Units of long repetitive text, the kind that makes a backtracking regular expression or a
 * rescanning loop take quadratic time (`((((…` against `/^(.*)\((.*):(\d+):(\d+)\)$/`). At
 * 200,000 characters a quadratic step costs 4·10^10 operations, far past the per-case time limit,
 * while a linear one takes milliseconds. None holds `"` or `\`, so JSON strings stay valid.
 */
const LONG_UNITS = ['(', ' (', ')', ':1', 'a;', ' ', 'x ', '1', '->', '+0x1', ' /', '::', 'u:', 'é', '[', '{', ' [CPP]', '0'];

const at = fc.nat({ max: 1 << 30 });

/** Long repetitive text inside a string (JSON) or a line (text formats). */
export const longArb: fc.Arbitrary<Mutation> = fc.record({
  op: fc.constant('long' as const),
  k: at,
  unit: fc.nat({ max: LONG_UNITS.length - 1 }),
  length: fc.constantFrom(1000, 200_000),
});

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('truncate' as const), at }) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('cut-at-boundary' as const),
      boundary: fc.nat({ max: BOUNDARIES.length - 1 }),
      k: at,
      before: fc.boolean(),
    }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('flip-bit' as const), at, bit: fc.nat({ max: 7 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('set-byte' as const),
      at,
      value: fc.oneof(fc.constantFrom(...SPECIAL_BYTES), fc.nat({ max: 255 })),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('insert-bytes' as const),
      at,
      bytes: fc.array(fc.nat({ max: 255 }), { minLength: 1, maxLength: 16 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('insert-token' as const),
      at,
      token: fc.nat({ max: TOKENS.length - 1 }),
      // 100,000 repeats make a line long enough that quadratic work shows as a timeout
      times: fc.oneof(
        { weight: 12, arbitrary: fc.constant(1) },
        { weight: 3, arbitrary: fc.integer({ min: 2, max: 2000 }) },
        { weight: 1, arbitrary: fc.constant(100_000) },
      ),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), at, length: fc.integer({ min: 1, max: 4096 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('duplicate' as const),
      from: at,
      length: fc.integer({ min: 1, max: 2048 }),
      to: at,
      times: fc.oneof({ weight: 5, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 50 }) }),
    }),
  },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('number' as const), k: at, value: fc.nat({ max: NUMBERS.length - 1 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('swap-numbers' as const), a: at, b: at }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('string' as const), k: at, value: fc.nat({ max: STRINGS.length - 1 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('swap-lines' as const), a: at, b: at }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('nest' as const),
      at,
      depth: fc.constantFrom(2, 64, 1000, 100_000),
      close: fc.boolean(),
      object: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('splice' as const), seed: at, from: at, length: fc.integer({ min: 1, max: 4096 }), at }),
  },
  { weight: 1, arbitrary: longArb },
);

/** Positions of `ch` in `s`. */
function positions(s: string, ch: string): number[] {
  const out: number[] = [];
  for (let i = s.indexOf(ch); i >= 0; i = s.indexOf(ch, i + 1)) out.push(i);
  return out;
}

const NUMBER_TOKEN = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const STRING_TOKEN = /"(?:[^"\\\n]|\\.){0,200}"/g;

function tokens(s: string, re: RegExp): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    out.push({ start: m.index, end: m.index + m[0].length });
    if (out.length >= 50_000) break;
  }
  return out;
}

function lineSpans(s: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let start = 0;
  for (const nl of positions(s, '\n')) {
    out.push({ start, end: nl });
    start = nl + 1;
  }
  if (start < s.length) out.push({ start, end: s.length });
  return out;
}

/** Applies one mutation; returns the new text and a short description. */
export function applyMutation(s: string, m: Mutation, seeds: readonly Seed[]): [string, string] {
  const n = s.length;
  const pos = (p: number) => (n === 0 ? 0 : p % (n + 1));
  switch (m.op) {
    case 'truncate': {
      const p = pos(m.at);
      return [s.slice(0, p), `truncate@${p}`];
    }
    case 'cut-at-boundary': {
      const ch = BOUNDARIES[m.boundary]!;
      const list = positions(s, ch);
      if (list.length === 0) return [s, `cut-at-${JSON.stringify(ch)}(none)`];
      const p = list[m.k % list.length]! + (m.before ? 0 : 1);
      return [s.slice(0, p), `cut-${m.before ? 'before' : 'after'}-${JSON.stringify(ch)}@${p}`];
    }
    case 'flip-bit': {
      if (n === 0) return [s, 'flip(empty)'];
      const p = m.at % n;
      return [s.slice(0, p) + String.fromCharCode(s.charCodeAt(p) ^ (1 << m.bit)) + s.slice(p + 1), `flip@${p}.${m.bit}`];
    }
    case 'set-byte': {
      if (n === 0) return [String.fromCharCode(m.value), 'set-byte(empty)'];
      const p = m.at % n;
      return [s.slice(0, p) + String.fromCharCode(m.value) + s.slice(p + 1), `set@${p}=0x${m.value.toString(16)}`];
    }
    case 'insert-bytes': {
      const p = pos(m.at);
      return [s.slice(0, p) + String.fromCharCode(...m.bytes) + s.slice(p), `insert${m.bytes.length}B@${p}`];
    }
    case 'insert-token': {
      const p = pos(m.at);
      const t = TOKENS[m.token]!;
      return [s.slice(0, p) + utf8Latin1(t).repeat(m.times) + s.slice(p), `insert${JSON.stringify(t)}x${m.times}@${p}`];
    }
    case 'delete': {
      const p = pos(m.at);
      return [s.slice(0, p) + s.slice(p + m.length), `delete${m.length}@${p}`];
    }
    case 'duplicate': {
      const from = pos(m.from);
      const piece = s.slice(from, from + m.length);
      const to = pos(m.to);
      return [s.slice(0, to) + piece.repeat(m.times) + s.slice(to), `dup[${from},+${piece.length}]x${m.times}@${to}`];
    }
    case 'number': {
      const list = tokens(s, NUMBER_TOKEN);
      if (list.length === 0) return [s, 'number(none)'];
      const t = list[m.k % list.length]!;
      const v = NUMBERS[m.value]!;
      return [s.slice(0, t.start) + v + s.slice(t.end), `number@${t.start}=${v.length > 20 ? `${v.slice(0, 8)}…(${v.length})` : v}`];
    }
    case 'swap-numbers': {
      const list = tokens(s, NUMBER_TOKEN);
      if (list.length < 2) return [s, 'swap-numbers(none)'];
      let a = list[m.a % list.length]!;
      let b = list[m.b % list.length]!;
      if (a.start === b.start) return [s, 'swap-numbers(same)'];
      if (a.start > b.start) [a, b] = [b, a];
      const out = s.slice(0, a.start) + s.slice(b.start, b.end) + s.slice(a.end, b.start) + s.slice(a.start, a.end) + s.slice(b.end);
      return [out, `swap-numbers@${a.start},${b.start}`];
    }
    case 'string': {
      const list = tokens(s, STRING_TOKEN);
      if (list.length === 0) return [s, 'string(none)'];
      const t = list[m.k % list.length]!;
      const v = STRINGS[m.value]!;
      return [`${s.slice(0, t.start)}"${v}"${s.slice(t.end)}`, `string@${t.start}=${v.length > 20 ? `x…(${v.length})` : v}`];
    }
    case 'swap-lines': {
      const list = lineSpans(s);
      if (list.length < 2) return [s, 'swap-lines(none)'];
      let a = list[m.a % list.length]!;
      let b = list[m.b % list.length]!;
      if (a.start === b.start) return [s, 'swap-lines(same)'];
      if (a.start > b.start) [a, b] = [b, a];
      const out = s.slice(0, a.start) + s.slice(b.start, b.end) + s.slice(a.end, b.start) + s.slice(a.start, a.end) + s.slice(b.end);
      return [out, `swap-lines@${a.start},${b.start}`];
    }
    case 'nest': {
      const p = pos(m.at);
      const open = m.object ? '{"a":' : '[';
      const close = m.object ? '}' : ']';
      const text = open.repeat(m.depth) + (m.close ? `1${close.repeat(m.depth)}` : '');
      return [s.slice(0, p) + text + s.slice(p), `nest${m.object ? '{' : '['}x${m.depth}${m.close ? '' : '(open)'}@${p}`];
    }
    case 'long': {
      const unit = LONG_UNITS[m.unit]!;
      const text = utf8Latin1(unit.repeat(Math.ceil(m.length / unit.length)));
      // inside a string when there is one (so that JSON stays valid), else anywhere
      const list = tokens(s, STRING_TOKEN);
      const p = list.length > 0 ? list[m.k % list.length]!.start + 1 : pos(m.k);
      return [s.slice(0, p) + text + s.slice(p), `long ${JSON.stringify(unit)}x${Math.ceil(m.length / unit.length)}@${p}`];
    }
    case 'splice': {
      if (seeds.length === 0) return [s, 'splice(none)'];
      const other = seeds[m.seed % seeds.length]!;
      const from = other.bytes.length === 0 ? 0 : m.from % other.bytes.length;
      const piece = latin1(other.bytes.subarray(from, from + m.length));
      const p = pos(m.at);
      return [s.slice(0, p) + piece + s.slice(p), `splice(${other.name}[${from},+${piece.length}])@${p}`];
    }
  }
}
