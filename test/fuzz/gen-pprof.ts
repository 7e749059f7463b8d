/**
 * Structured generator for pprof (`perftools.profiles.Profile`, see
 * https://github.com/google/pprof/blob/main/proto/profile.proto), written with a small protobuf
 * encoder: sample types and string indices past the table, samples whose location ids point
 * nowhere, negative and 64-bit values, lines ≥ 2^32 (the packed-column trick), huge times; plus
 * messages of random fields (valid framing, random content) and raw random bytes that start like a
 * profile. Deep case: one sample 100,000 locations deep.
 */
import fc from 'fast-check';
import type { DeepOptions } from './gen-v8';
import { anyName } from './values';

/** A protobuf message under construction. */
export class Proto {
  private readonly bytes: number[] = [];

  varint(v: bigint | number): this {
    // Negative int64 values are written as their two's complement: ten bytes.
    let x = BigInt.asUintN(64, BigInt(v));
    do {
      let b = Number(x & 0x7fn);
      x >>= 7n;
      if (x > 0n) b |= 0x80;
      this.bytes.push(b);
    } while (x > 0n);
    return this;
  }

  tag(field: number, wire: number): this {
    return this.varint((field << 3) | wire);
  }

  uint(field: number, v: bigint | number): this {
    return this.tag(field, 0).varint(v);
  }

  bytesField(field: number, b: Uint8Array | number[]): this {
    this.tag(field, 2).varint(b.length);
    for (const x of b) this.bytes.push(x);
    return this;
  }

  string(field: number, s: string): this {
    return this.bytesField(field, new TextEncoder().encode(s));
  }

  message(field: number, m: Proto): this {
    return this.bytesField(field, m.bytes);
  }

  packed(field: number, values: (bigint | number)[]): this {
    const inner = new Proto();
    for (const v of values) inner.varint(v);
    return this.bytesField(field, inner.bytes);
  }

  raw(b: number[]): this {
    for (const x of b) this.bytes.push(x);
    return this;
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

/** int64 values: small, negative, at the 32/53/63/64-bit edges. */
const int64Arb: fc.Arbitrary<bigint> = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 1000 }).map(BigInt) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(-1n, 2n ** 31n, 2n ** 32n, 2n ** 32n + 5n, 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 64n - 1n),
  },
  { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }) },
);

const STRINGS = [
  '',
  'samples',
  'count',
  'cpu',
  'nanoseconds',
  'wall',
  'microseconds',
  'inuse_space',
  'bytes',
  'space',
  'alloc_space',
  'objects',
  'sample',
  'milliseconds',
  'seconds',
  'Garbage Collection',
  'Non JS threads activity',
  '(anonymous:L#171:C#36)',
  'handler',
  '/srv/app/server.js',
  'node_modules/x/addon.node',
  '__proto__',
  'constructor',
];

/** A mostly well-formed Profile whose cross references are often wrong. */
export const pprofProfile: fc.Arbitrary<Uint8Array> = fc
  .record({
    strings: fc.array(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...STRINGS) }, { weight: 1, arbitrary: anyName }), {
      minLength: 0,
      maxLength: 24,
    }),
    stringsFirst: fc.boolean(),
    sampleTypes: fc.array(fc.tuple(fc.integer({ min: -1, max: 30 }), fc.integer({ min: -1, max: 30 })), { maxLength: 3 }),
    samples: fc.array(
      fc.record({
        locations: fc.array(fc.integer({ min: -1, max: 12 }), { maxLength: 6 }),
        values: fc.array(int64Arb, { maxLength: 3 }),
        packed: fc.boolean(),
      }),
      { maxLength: 12 },
    ),
    locations: fc.array(
      fc.record({
        id: fc.integer({ min: 0, max: 12 }),
        mapping: fc.integer({ min: 0, max: 4 }),
        address: int64Arb,
        lines: fc.array(fc.record({ fn: fc.integer({ min: 0, max: 8 }), line: int64Arb, column: int64Arb }), { maxLength: 3 }),
      }),
      { maxLength: 10 },
    ),
    functions: fc.array(
      fc.record({
        id: fc.integer({ min: 0, max: 8 }),
        name: fc.integer({ min: -1, max: 30 }),
        system: fc.integer({ min: 0, max: 30 }),
        file: fc.integer({ min: 0, max: 30 }),
      }),
      { maxLength: 8 },
    ),
    mappings: fc.array(fc.record({ id: fc.integer({ min: 0, max: 4 }), file: fc.integer({ min: 0, max: 30 }) }), { maxLength: 3 }),
    timeNanos: int64Arb,
    durationNanos: int64Arb,
    period: int64Arb,
    periodType: fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 })),
    defaultType: fc.integer({ min: -1, max: 30 }),
  })
  .map((r) => {
    const p = new Proto();
    const strings = () => {
      for (const s of r.strings) p.string(6, s);
    };
    if (r.stringsFirst) strings();
    for (const [t, u] of r.sampleTypes) p.message(1, new Proto().uint(1, t).uint(2, u));
    for (const s of r.samples) {
      const m = new Proto();
      if (s.packed) m.packed(1, s.locations);
      else for (const l of s.locations) m.uint(1, l);
      m.packed(2, s.values);
      p.message(2, m);
    }
    for (const m of r.mappings) p.message(3, new Proto().uint(1, m.id).uint(5, m.file));
    for (const l of r.locations) {
      const m = new Proto().uint(1, l.id).uint(2, l.mapping).uint(3, l.address);
      for (const line of l.lines) m.message(4, new Proto().uint(1, line.fn).uint(2, line.line).uint(3, line.column));
      p.message(4, m);
    }
    for (const f of r.functions) p.message(5, new Proto().uint(1, f.id).uint(2, f.name).uint(3, f.system).uint(4, f.file));
    if (!r.stringsFirst) strings();
    p.uint(9, r.timeNanos).uint(10, r.durationNanos);
    p.message(11, new Proto().uint(1, r.periodType[0]).uint(2, r.periodType[1]));
    p.uint(12, r.period).uint(14, r.defaultType);
    return p.finish();
  });

/** Random fields with valid framing and random content, wire types 3–7 included. */
export const pprofFieldSoup: fc.Arbitrary<Uint8Array> = fc
  .array(
    fc.record({
      field: fc.integer({ min: 0, max: 20 }),
      wire: fc.integer({ min: 0, max: 7 }),
      value: int64Arb,
      body: fc.uint8Array({ maxLength: 24 }),
    }),
    { maxLength: 24 },
  )
  .map((fields) => {
    const p = new Proto().message(1, new Proto().uint(1, 1).uint(2, 2));
    for (const f of fields) {
      p.tag(f.field, f.wire);
      if (f.wire === 0) p.varint(f.value);
      else if (f.wire === 2) p.varint(f.body.length).raw([...f.body]);
      else if (f.wire === 1) p.raw([...f.body.subarray(0, 8)]);
      else if (f.wire === 5) p.raw([...f.body.subarray(0, 4)]);
      else p.raw([...f.body.subarray(0, 2)]);
    }
    return p.string(6, '').string(6, 'samples').string(6, 'count').finish();
  });

/** Random bytes behind a head that makes the sniffer say "pprof". */
export const pprofLikeBytes: fc.Arbitrary<Uint8Array> = fc.uint8Array({ maxLength: 2048 }).map((b) => {
  const out = new Uint8Array(b.length + 6);
  out.set([0x0a, 0x04, 0x08, 0x01, 0x10, 0x02]);
  out.set(b, 6);
  return out;
});

/** One sample `depth` locations deep (each location its own function), or as many samples. */
export function deepPprof(o: DeepOptions): Uint8Array {
  const n = o.depth;
  const p = new Proto();
  p.message(1, new Proto().uint(1, 1).uint(2, 2));
  const locations: number[] = [];
  for (let i = 1; i <= n; i++) locations.push(i);
  if (o.variant % 2 === 0) p.message(2, new Proto().packed(1, locations).packed(2, [o.variant === 4 ? 2n ** 63n - 1n : 1n]));
  else for (let i = 1; i <= n; i += 1000) p.message(2, new Proto().packed(1, [i]).packed(2, [2n ** 62n]));
  for (let i = 1; i <= n; i++) p.message(4, new Proto().uint(1, i).message(4, new Proto().uint(1, (i % 50) + 1).uint(2, i)));
  for (let f = 1; f <= 50; f++) p.message(5, new Proto().uint(1, f).uint(2, 3).uint(4, 4));
  for (const s of ['', 'samples', 'count', 'handler', '/srv/app/server.js']) p.string(6, s);
  const bytes = p.finish();
  return o.cut ? bytes.slice(0, Math.floor(bytes.length * 0.6)) : bytes;
}
