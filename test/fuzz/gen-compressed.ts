/**
 * Compressed inputs that claim more than they hold, or inflate far beyond their size:
 * - gzip bombs: the opening of a format (or random bytes), then one unit (an event, a stack line,
 *   a sample id, a pprof string entry, random bytes) repeated to between 1 MiB and 1 GiB of
 *   content, with some noise to vary how well it compresses (from about 1,000:1 down to well
 *   under the budget's ratio), a closing or none, and a gzip trailer whose size and checksum are
 *   true or forged (a 4 GiB claim, a wrong checksum);
 * - gzipped pprof whose length-delimited fields (strings, samples, locations) claim up to 2^62
 *   bytes that are not there.
 * A bomb is built without inflating it: one block of units is deflated once and its bytes
 * repeated (a block flushed to a byte boundary refers only to itself), so a case costs what the
 * importer reads, not what the content would be.
 */
import fc from 'fast-check';
import type { FuzzInput } from './fuzz-harness';
import { Proto } from './gen-pprof';

/** What the generators need of zlib (Node's in the tests; `shared/` is platform-free). */
export interface Deflater {
  /** raw deflate of `bytes`, flushed to a byte boundary and not final (Z_SYNC_FLUSH) */
  deflateRaw(bytes: Uint8Array): Uint8Array;
  crc32(bytes: Uint8Array): number;
  gzip(bytes: Uint8Array): Uint8Array;
}

const MiB = 1024 * 1024;
const enc = new TextEncoder();

/** A format's opening, the unit it repeats and its closing. */
interface Shape {
  name: string;
  head: Uint8Array;
  unit: Uint8Array;
  tail: Uint8Array;
}

const pprofString = new Proto().string(6, 'frame').finish();
const pprofSample = new Proto().message(2, new Proto().packed(1, [1]).packed(2, [1])).finish();

const SHAPES: readonly Shape[] = [
  { name: 'stacks.folded.gz', head: 'main;work 1\n', unit: 'main;work;loop 1\n', tail: '' },
  { name: 'perf.script.gz', head: '', unit: 'node 1 1.000001: 1 cpu-clock:\n\t1 main+0x1 (/bin/node)\n\n', tail: '' },
  {
    name: 'trace.json.gz',
    head: '{"traceEvents":[',
    unit: '{"ph":"X","ts":1,"dur":1,"pid":1,"tid":1,"name":"a"},',
    tail: '{"ph":"X","ts":2,"dur":1,"pid":1,"tid":1,"name":"a"}]}',
  },
  {
    name: 'x.cpuprofile.gz',
    head: '{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1}}],"startTime":0,"endTime":1,"samples":[',
    unit: '1,',
    tail: '1],"timeDeltas":[1]}',
  },
  { name: 'trace.json.gz', head: '{"traceEvents":[{"ph":"X","name":"', unit: 'a', tail: '"}]}' },
  { name: 'ticks.json.gz', head: '[', unit: '{"stack":[1,2,3],"ts":1},', tail: '{}]' },
].map((s) => ({ name: s.name, head: enc.encode(s.head), unit: enc.encode(s.unit), tail: enc.encode(s.tail) }));

const PPROF_SHAPES: readonly Shape[] = [
  {
    name: 'cpu.pb.gz',
    head: new Proto().message(1, new Proto().uint(1, 1).uint(2, 2)).finish(),
    unit: pprofString,
    tail: new Uint8Array(),
  },
  {
    name: 'cpu.pb.gz',
    head: new Proto().message(1, new Proto().uint(1, 1).uint(2, 2)).finish(),
    unit: pprofSample,
    tail: new Uint8Array(),
  },
];

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** `unit` repeated to `size` bytes, with `noise` bytes of a simple generator's output at `every`. */
function block(unit: Uint8Array, size: number, noise: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let o = 0; o < size; o += unit.length) out.set(unit.subarray(0, Math.min(unit.length, size - o)), o);
  let x = seed | 1;
  for (let i = 0; i < noise; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[(x >>> 0) % size] = 0x61 + ((x >>> 8) % 26);
  }
  return out;
}

const GZIP_HEADER = Uint8Array.of(0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03);
/** An empty fixed-Huffman block marked final. */
const FINAL_BLOCK = Uint8Array.of(0x03, 0x00);

function le32(n: number): Uint8Array {
  return Uint8Array.of(n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff);
}

export interface BombOptions {
  shape: number;
  /** content size in MiB, before the head and tail */
  mib: number;
  /** bytes of noise in each 1 MiB block (0: about 1,000:1) */
  noise: number;
  seed: number;
  trailer: 'true' | 'forged-size' | 'forged-crc';
  /** whether the format's closing follows the units */
  closed: boolean;
}

/** A gzip file of `o.mib` MiB of units between a head and a tail, and its true content size. */
export function gzipBomb(z: Deflater, o: BombOptions, shapes: readonly Shape[]): { name: string; bytes: Uint8Array; inflates: number } {
  const s = shapes[o.shape % shapes.length]!;
  const unitBlock = block(s.unit, MiB - (MiB % s.unit.length), o.noise, o.seed);
  const packed = z.deflateRaw(unitBlock);
  const tail = o.closed ? s.tail : new Uint8Array();
  const parts = [GZIP_HEADER, z.deflateRaw(s.head)];
  for (let i = 0; i < o.mib; i++) parts.push(packed);
  parts.push(z.deflateRaw(tail), FINAL_BLOCK);
  const inflates = s.head.length + o.mib * unitBlock.length + tail.length;
  // The true checksum only where it is cheap to know (small content).
  const crc =
    o.trailer !== 'forged-crc' && o.mib <= 2 ? z.crc32(concat([s.head, ...Array<Uint8Array>(o.mib).fill(unitBlock), tail])) : 0x12345678;
  const isize = o.trailer === 'forged-size' ? 0xffffffff : inflates >>> 0;
  parts.push(le32(crc), le32(isize));
  return { name: s.name, bytes: concat(parts), inflates };
}

const bombOptions: fc.Arbitrary<BombOptions> = fc
  .record({
    shape: fc.nat({ max: 63 }),
    // mostly past the budget's free allowance, sometimes within it, sometimes 1 GiB
    mib: fc.oneof(
      { weight: 2, arbitrary: fc.integer({ min: 1, max: 8 }) },
      { weight: 6, arbitrary: fc.integer({ min: 17, max: 256 }) },
      { weight: 1, arbitrary: fc.constant(1024) },
    ),
    noise: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 256 }), fc.integer({ min: 1024, max: 16_384 })),
    seed: fc.integer(),
    trailer: fc.constantFrom('true', 'forged-size', 'forged-crc'),
    closed: fc.boolean(),
  })
  // (content that compresses as real files do is read whole: up to 64 MiB of it keeps a case
  // within seconds; the gigabyte cases are the bombs the budget refuses)
  .map((o) => (o.noise >= 1024 ? { ...o, mib: Math.min(o.mib, 64) } : o));

/** Gzip bombs of every text format and of random bytes (see the file's comment). */
export function gzipBombs(z: Deflater): fc.Arbitrary<FuzzInput> {
  return fc
    .tuple(
      bombOptions,
      fc.uint8Array({ minLength: 1, maxLength: 64 }),
      fc.nat({ max: 3 }).map((n) => n === 0),
      fc.constantFrom(4096, 65_536, 1 << 20),
    )
    .map(([o, random, useRandom, chunk]) => {
      const shapes = useRandom ? [{ name: 'data.bin.gz', head: new Uint8Array(), unit: random, tail: new Uint8Array() }] : SHAPES;
      const b = gzipBomb(z, o, shapes);
      return {
        name: b.name,
        bytes: b.bytes,
        chunk,
        inflates: b.inflates,
        label: `gzip bomb ${b.name} ${JSON.stringify(o)}${useRandom ? ` of ${random.length} random bytes` : ''} (${b.bytes.length} bytes, inflates to ${b.inflates})`,
      };
    });
}

/** A field of `Profile` whose length claims `claim` bytes, followed by only `have` of them. */
function claimingField(field: number, claim: bigint, have: Uint8Array): Uint8Array {
  const p = new Proto().message(1, new Proto().uint(1, 1).uint(2, 2)).tag(field, 2).varint(claim);
  return concat([p.finish(), have]);
}

/** Gzipped pprof: bombs of strings and samples, and fields claiming up to 2^62 bytes. */
export function pprofClaims(z: Deflater): fc.Arbitrary<FuzzInput> {
  const bomb = fc.tuple(bombOptions, fc.constantFrom(4096, 65_536, 1 << 20)).map(([o, chunk]): FuzzInput => {
    const b = gzipBomb(z, o, PPROF_SHAPES);
    return {
      name: b.name,
      bytes: b.bytes,
      chunk,
      inflates: b.inflates,
      label: `pprof gzip bomb ${JSON.stringify(o)} (${b.bytes.length} bytes, inflates to ${b.inflates})`,
    };
  });
  const claims = fc
    .tuple(
      fc.constantFrom(1, 2, 3, 4, 5, 6),
      fc.oneof(fc.bigInt({ min: 1n << 20n, max: 1n << 62n }), fc.constantFrom(2n ** 31n - 1n, 2n ** 32n, 2n ** 53n, 2n ** 62n)),
      fc.uint8Array({ maxLength: 256 }),
    )
    .map(([field, claim, have]): FuzzInput => {
      const bytes = z.gzip(claimingField(field, claim, have));
      return { name: 'cpu.pb.gz', bytes, chunk: 1 << 20, label: `pprof field ${field} claiming ${claim} bytes, holding ${have.length}` };
    });
  return fc.oneof(bomb, claims);
}
