/**
 * A `.cpuprofile`'s `samples` and `timeDeltas` taken in runs of plain integers (see
 * `JsonStreamHandlers.numbers`) against the same numbers spelled so that no run takes them
 * (`5e0` for `5`: the exact scan and `JSON.parse`), and against the whole-file reading: the same
 * profile — tree, samples, times, warnings — for any cut of the bytes into chunks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importProfile } from '../../import-profile';
import type { ByteSource } from '../../io/source';
import { timeColumn } from '../../../model/sample-times';
import type { Profile } from '../../../model/types';

const utf8 = new TextEncoder();

/** `text` as a source whose chunks are cut at `cuts`. */
function cutSource(text: string, cuts: number[]): ByteSource {
  const bytes = utf8.encode(text);
  const at = [0, ...[...new Set(cuts)].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b), bytes.length];
  return {
    name: 't.cpuprofile',
    size: bytes.length,
    stream() {
      let i = 0;
      return new ReadableStream<Uint8Array>({
        pull(c) {
          if (i + 1 >= at.length) return c.close();
          c.enqueue(bytes.slice(at[i]!, at[++i]!));
        },
      });
    },
  };
}

const importCut = (text: string, cuts: number[], keep: boolean) =>
  importProfile(cutSource(text, cuts), keep ? {} : { options: { samples: false } });

/** The profile with its times as one Float64 column, whichever form the table keeps them in. */
function plainTimes(p: Profile): Profile {
  const s = p.samples;
  if (!s) return p;
  const { timeBase: _b, timeOffset: _o, timeWide: _w, ...rest } = s;
  return { ...p, samples: { ...rest, time: timeColumn(s) } };
}

/** A number as the file spells it, and the same value spelled for the exact scan (no run takes it). */
type Token = [plain: string, scanned: string];
const token = (t: string): Token => [t, /[.eE]/.test(t) ? t : `${t}e0`];

const ids = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 1, max: 8 }).map(String) },
  // unknown: past the nodes, fractional, negative, far
  { weight: 1, arbitrary: fc.constantFrom('0', '9', '-3', '1.5', '1000000000', '-0', '12345678901234567') },
);
const deltas = fc.oneof(
  { weight: 10, arbitrary: fc.integer({ min: -300, max: 5000 }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('-0', '0', '999999999999999', '1234567890123456', '-9999999999999999', '2.5', '1e3', '-7E-1') },
);
const gap = fc.constantFrom('', '', '', ' ', '\n  ');

interface Shape {
  nodes: number;
  samples: Token[];
  deltas: Token[];
  gaps: string[];
  startTime: 'none' | 'early' | 'late';
}

const shapes: fc.Arbitrary<Shape> = fc.record({
  nodes: fc.integer({ min: 1, max: 8 }),
  samples: fc.array(ids.map(token), { maxLength: 60 }),
  deltas: fc.array(deltas.map(token), { maxLength: 60 }),
  gaps: fc.array(gap, { minLength: 8, maxLength: 8 }),
  startTime: fc.constantFrom('none', 'early', 'late'),
});

/** `pick(i)` chooses each number's spelling: 0 plain, 1 for the exact scan. */
function profileText(s: Shape, pick: (i: number) => 0 | 1, samplesFirst = false): string {
  const nodes = Array.from({ length: s.nodes }, (_, i) => ({
    id: i + 1,
    callFrame: { functionName: `f${i}`, scriptId: '1', url: 'a.js', lineNumber: i, columnNumber: 0 },
    children: i + 1 < s.nodes ? [i + 2] : [],
  }));
  let k = 0;
  const list = (tokens: Token[]) => tokens.map((t) => `${s.gaps[k % 8]}${t[pick(k++)]}${s.gaps[(k * 3) % 8]}`).join(',');
  const samples = `"samples":[${list(s.samples)}]`;
  const timeDeltas = `"timeDeltas":[${list(s.deltas)}]`;
  const start = '"startTime":1700000000000000';
  const parts = [`"nodes":${JSON.stringify(nodes)}`, samples, timeDeltas];
  if (samplesFirst) parts.push(parts.shift()!);
  if (s.startTime === 'early') parts.splice(1, 0, start);
  if (s.startTime === 'late') parts.push(start);
  return `{${parts.join(',')}}`;
}

const cutsArb = fc.array(fc.nat({ max: 1500 }), { maxLength: 8 });

describe('.cpuprofile numbers in runs', () => {
  it('give the profile the exact scan and the whole-file reading give, cut anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(shapes, fc.boolean(), fc.array(fc.boolean(), { minLength: 1 }), cutsArb, async (shape, keep, mix, cuts) => {
        const want = plainTimes(
          await importCut(
            profileText(shape, () => 0),
            [],
            keep,
          ),
        );
        const mixed = profileText(shape, (i) => (mix[i % mix.length] ? 1 : 0));
        expect(plainTimes(await importCut(mixed, cuts, keep))).toEqual(want);
        expect(
          plainTimes(
            await importCut(
              profileText(shape, () => 1),
              cuts,
              keep,
            ),
          ),
        ).toEqual(want);
        // (a delta that takes the sum past 2^53 before a late startTime brings it back: the
        // streamed reading has already dropped that time, the whole-file reading has not)
        if (shape.startTime !== 'late')
          expect(
            plainTimes(
              await importCut(
                profileText(shape, () => 0, true),
                cuts,
                keep,
              ),
            ),
          ).toEqual(want);
      }),
      { numRuns: 200 },
    );
  });

  it('give the same profile at every cut of a file with every kind of number', async () => {
    const shape: Shape = {
      nodes: 3,
      samples: ['1', '2', '3', '9', '-3', '2', '1.5', '3', '12345678901234567', '1'].map(token),
      deltas: ['100', '-20', '5', '-0', '1234567890123456', '2.5', '1e3', '7', '999999999999999'].map(token),
      gaps: ['', ' ', '', '\n', '', '', ' ', ''],
      startTime: 'late',
    };
    const text = profileText(shape, (i) => (i % 4 === 3 ? 1 : 0));
    const want = plainTimes(await importCut(text, [], true));
    expect(want.meta.warnings.join('\n')).toMatch(/name node ids that are not in the file \(first: 9\)/);
    expect(want.meta.warnings.join('\n')).toMatch(/out of time order/);
    const from = text.indexOf('"samples"');
    for (let c = from; c < text.length; c++) expect(plainTimes(await importCut(text, [c], true)), `cut at ${c}`).toEqual(want);
  });

  it('name the byte of a "samples" array that comes after "timeDeltas" began, cut anywhere', async () => {
    for (const second of ['7', '7e0', ' 7']) {
      const text = `{"nodes":[{"id":7,"callFrame":{"functionName":"a"}}],"samples":[7,7],"timeDeltas":[1,2],"samples":[${second},7]}`;
      // the second array's first element, after its white space
      const where = text.lastIndexOf('"samples":[') + '"samples":['.length + second.indexOf('7');
      for (let c = 1; c < text.length; c++)
        await expect(importCut(text, [c], true), `${second}, cut at ${c}`).rejects.toThrow(
          `t.cpuprofile (byte ${where}): a "samples" array comes after "timeDeltas" began`,
        );
    }
  });

  it('name the byte of a number with a leading zero and refuse numbers where nodes belong, cut anywhere', async () => {
    const text = '{"nodes":[{"id":1,"callFrame":{"functionName":"a"}}],"samples":[1,1,01,1],"timeDeltas":[1,2,3,4]}';
    for (let c = 1; c < text.length; c++)
      await expect(importCut(text, [c], true)).rejects.toThrow(`t.cpuprofile (byte ${text.indexOf('01')}): invalid JSON`);
    const nodes = '{"nodes":[{"id":1,"callFrame":{"functionName":"a"}}, 2,3],"samples":[1]}';
    for (let c = 1; c < nodes.length; c++)
      await expect(importCut(nodes, [c], true)).rejects.toThrow(
        `t.cpuprofile (byte ${nodes.indexOf('2')}): a node in "nodes" has no numeric "id"`,
      );
  });
});
