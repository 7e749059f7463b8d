/**
 * How a fuzzed file reaches the importer: re-encoded (UTF-16 LE/BE with or without BOM, UTF-8
 * BOM, CRLF), possibly gzipped (and the gzip cut or flipped), read in chunks of any size, under its
 * own name or one that suggests another format; and the arbitraries that put it together with the
 * mutations of ./mutations: real files damaged (`mutatedSeeds`), generated files (`delivered`),
 * deep cases (`deepInputs`).
 */
import fc from 'fast-check';
import type { FormatId } from '../../shared/model/types';
import type { FuzzInput } from './fuzz-harness';
import { type Gzip, type Mutation, type Seed, applyMutation, fromLatin1, latin1, longArb, mutationArb, utf8Latin1 } from './mutations';

const utf8 = new TextEncoder();
const at = fc.nat({ max: 1 << 30 });

export type Encoding = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16le-bom' | 'utf-16be' | 'utf-16be-bom' | 'crlf';

export const encodingArb: fc.Arbitrary<Encoding> = fc.oneof(
  { weight: 20, arbitrary: fc.constant<Encoding>('utf-8') },
  { weight: 1, arbitrary: fc.constantFrom<Encoding>('utf-8-bom', 'utf-16le', 'utf-16le-bom', 'utf-16be', 'utf-16be-bom', 'crlf') },
);

/** Re-encodes bytes (read as UTF-8, damaged sequences becoming U+FFFD) in `enc`. */
export function encode(bytes: Uint8Array, enc: Encoding): Uint8Array {
  switch (enc) {
    case 'utf-8':
      return bytes;
    case 'utf-8-bom': {
      const out = new Uint8Array(bytes.length + 3);
      out.set([0xef, 0xbb, 0xbf]);
      out.set(bytes, 3);
      return out;
    }
    case 'crlf':
      return fromLatin1(latin1(bytes).replace(/\r?\n/g, '\r\n'));
    default: {
      const text = new TextDecoder('utf-8').decode(bytes);
      const bom = enc.endsWith('-bom') ? 1 : 0;
      const le = enc.startsWith('utf-16le');
      const out = new Uint8Array((text.length + bom) * 2);
      const put = (i: number, u: number) => {
        out[2 * i + (le ? 0 : 1)] = u & 0xff;
        out[2 * i + (le ? 1 : 0)] = u >> 8;
      };
      if (bom) put(0, 0xfeff);
      for (let i = 0; i < text.length; i++) put(i + bom, text.charCodeAt(i));
      return out;
    }
  }
}

export type Compression =
  { kind: 'none' } | { kind: 'gzip' } | { kind: 'gzip-cut'; at: number } | { kind: 'gzip-flip'; at: number; bit: number };

export const compressionArb: fc.Arbitrary<Compression> = fc.oneof(
  { weight: 16, arbitrary: fc.constant<Compression>({ kind: 'none' }) },
  { weight: 2, arbitrary: fc.constant<Compression>({ kind: 'gzip' }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('gzip-cut' as const), at }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('gzip-flip' as const), at, bit: fc.nat({ max: 7 }) }) },
);

export function compress(bytes: Uint8Array, c: Compression, gzip: Gzip | undefined): [Uint8Array, string] {
  if (c.kind === 'none' || !gzip) return [bytes, ''];
  const z = gzip(bytes);
  if (c.kind === 'gzip') return [z, 'gzip'];
  if (c.kind === 'gzip-cut') {
    const p = c.at % (z.length + 1);
    return [z.slice(0, p), `gzip-cut@${p}`];
  }
  const out = z.slice();
  const p = c.at % out.length;
  out[p]! ^= 1 << c.bit;
  return [out, `gzip-flip@${p}.${c.bit}`];
}

/** Stream chunk sizes: usually large, sometimes tiny (every byte a chunk boundary), sometimes odd. */
export const chunkArb: fc.Arbitrary<number> = fc.oneof(
  { weight: 6, arbitrary: fc.constant(1 << 20) },
  { weight: 3, arbitrary: fc.integer({ min: 64, max: 65_536 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 63 }) },
);

/** Small chunks make a big input slow without finding more; keep them for small inputs. */
export function fitChunk(chunk: number, size: number): number {
  return size > 16_384 && chunk < 512 ? 512 + chunk : chunk;
}

/** File names: usually the seed's own, sometimes one that suggests another format, sometimes none that helps. */
export const NAMES = [
  'profile',
  'x.cpuprofile',
  'x.heapprofile',
  'trace.json',
  'node_trace.1.log',
  'perf.script.txt',
  'out.perf',
  'stacks.folded',
  'ticks.json',
  'isolate-0x1-v8.log.json',
  'flamegraph.html',
  'cpu.pb.gz',
  'x.pprof',
  'data.bin',
  'notes.txt',
];

export const nameArb: fc.Arbitrary<number> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(-1) },
  { weight: 1, arbitrary: fc.nat({ max: NAMES.length - 1 }) },
);

/** Everything that turns a text (or bytes) into a fuzz input after it is written or mutated. */
export interface Delivery {
  encoding: Encoding;
  compression: Compression;
  chunk: number;
  name: number;
}

export const deliveryArb: fc.Arbitrary<Delivery> = fc.record({
  encoding: encodingArb,
  compression: compressionArb,
  chunk: chunkArb,
  name: nameArb,
});

/** The fuzz input for `bytes` delivered as `d`; `label` says how the bytes were made. */
export function deliver(ownName: string, bytes: Uint8Array, d: Delivery, label: string, gzip: Gzip | undefined): FuzzInput {
  const encoded = encode(bytes, d.encoding);
  const [final, how] = compress(encoded, d.compression, gzip);
  const name = d.name < 0 ? ownName : NAMES[d.name]!;
  const chunk = fitChunk(d.chunk, final.length);
  const parts = [
    label,
    d.encoding === 'utf-8' ? '' : d.encoding,
    how,
    chunk === 1 << 20 ? '' : `chunks of ${chunk}`,
    name === ownName ? '' : `named ${name}`,
  ];
  return { name, bytes: final, chunk, label: parts.filter((p) => p !== '').join(' | ') };
}

/** Seeds damaged by one to four mutations, then delivered. */
export function mutatedSeeds(seeds: readonly Seed[], gzip?: Gzip): fc.Arbitrary<FuzzInput> {
  const texts = seeds.map((s) => latin1(s.bytes));
  return fc
    .record({
      seed: fc.nat({ max: seeds.length - 1 }),
      mutations: fc.array(mutationArb, { minLength: 1, maxLength: 4 }),
      delivery: deliveryArb,
    })
    .map(({ seed, mutations, delivery }) => {
      const s0 = seeds[seed]!;
      let text = texts[seed]!;
      const steps = [`seed ${s0.name}`];
      for (const m of mutations) {
        const [next, what] = applyMutation(text, m, seeds);
        text = next;
        steps.push(what);
      }
      return deliver(s0.name, fromLatin1(text), delivery, steps.join(' | '), gzip);
    });
}

/** Texts (or bytes) from a structured generator, delivered (and sometimes damaged a little) like the seeds. */
export function delivered(name: string, made: fc.Arbitrary<string | Uint8Array>, gzip?: Gzip): fc.Arbitrary<FuzzInput> {
  return fc
    .record({
      made,
      mutations: fc.oneof(
        { weight: 60, arbitrary: fc.constant<Mutation[]>([]) },
        { weight: 20, arbitrary: fc.array(mutationArb, { minLength: 1, maxLength: 2 }) },
        { weight: 3, arbitrary: longArb.map((m) => [m]) },
      ),
      delivery: deliveryArb,
    })
    .map(({ made, mutations, delivery }) => {
      let s = typeof made === 'string' ? utf8Latin1(made) : latin1(made);
      const steps = [`generated ${name} (${s.length} bytes)`];
      for (const m of mutations) {
        const [next, what] = applyMutation(s, m, []);
        s = next;
        steps.push(what);
      }
      return deliver(name, fromLatin1(s), delivery, steps.join(' | '), gzip);
    });
}

/** Deep cases (100,000 frames or levels): made by `make`, delivered whole or in 64 KiB chunks. */
export function deepInputs<O>(name: string, options: fc.Arbitrary<O>, make: (o: O) => string | Uint8Array): fc.Arbitrary<FuzzInput> {
  return fc.tuple(options, fc.boolean()).map(([o, small]) => {
    const made = make(o);
    const bytes = typeof made === 'string' ? utf8.encode(made) : made;
    const chunk = small ? 65_536 : 1 << 20;
    return { name, bytes, chunk, label: `deep ${name} ${JSON.stringify(o)} (${bytes.length} bytes)${small ? ' | chunks of 65536' : ''}` };
  });
}

/** Inputs that half the time go straight to the importer `id`, whatever its content test says. */
export function sometimesDirect(id: FormatId, inputs: fc.Arbitrary<FuzzInput>): fc.Arbitrary<FuzzInput> {
  return fc
    .tuple(inputs, fc.boolean())
    .map(([input, direct]) => (direct ? { ...input, direct: id, label: `${input.label} | parsed as ${id}` } : input));
}
