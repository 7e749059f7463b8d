/**
 * Arrays of numbers handed over in runs (`JsonStreamHandlers.numbers`) against one by one
 * (`element`) and against `JSON.parse`: the same values, in the same order, at the same places,
 * however the bytes are cut into chunks — inside a number, at a comma, at a minus sign, at `]`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../errors';
import { type JsonStreamHandlers, streamJson } from './json-stream';

const utf8 = new TextEncoder();

/** The bytes of `text` in chunks cut at `cuts` (offsets, in any order). */
async function* cutAt(text: string, cuts: number[]): AsyncGenerator<Uint8Array> {
  const bytes = utf8.encode(text);
  let at = 0;
  for (const c of [...new Set(cuts)].sort((a, b) => a - b)) {
    if (c <= at || c >= bytes.length) continue;
    yield bytes.slice(at, c);
    at = c;
  }
  yield bytes.slice(at);
}

type Got = [key: string, value: unknown, offset: number][];

/**
 * Every element as [key, value, offset], read with runs (`numbers`) or without; `places` false
 * leaves the offsets of numbers in runs out (each is found by reading the run again).
 */
async function read(text: string, cuts: number[], runs: boolean, places = true): Promise<{ got: Got; runs: number }> {
  const got: Got = [];
  let runCount = 0;
  const handlers: JsonStreamHandlers = {
    element: (k, v, o) => void got.push([k, v, o]),
    value: () => {},
  };
  if (runs)
    handlers.numbers = (k, values, count, at) => {
      runCount++;
      for (let i = 0; i < count; i++) got.push([k, values[i], places ? at.offset(i) : -1]);
      values.fill(NaN); // the reader's array: nothing it hands over later may come from it
    };
  await streamJson(cutAt(text, cuts), handlers, 't.json');
  return { got, runs: runCount };
}

/** Numbers as a file may spell them: runs take the plain integers, the exact scan the rest. */
const numberText: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -100_000, max: 2_000_000 }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('0', '-0', '-1', '999999999999999', '-999999999999999') },
  { weight: 1, arbitrary: fc.constantFrom('1234567890123456', '-9007199254740993', '12345678901234567890') },
  { weight: 1, arbitrary: fc.constantFrom('1.5', '-0.25', '2e3', '-1E-2', '5e0', '1.0', '7E+1') },
);

const gap = fc.constantFrom('', '', '', ' ', '\n', ' \r\n\t');

/** A top-level object holding arrays of numbers (and one of something else). */
const documents: fc.Arbitrary<string> = fc
  .array(
    fc.record({
      key: fc.constantFrom('samples', 'timeDeltas', 'd'),
      items: fc.array(fc.tuple(gap, numberText, gap), { maxLength: 30 }),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((arrays) => {
    const parts = arrays.map(({ key, items }) => `"${key}":[${items.map(([a, n, b]) => `${a}${n}${b}`).join(',')}]`);
    return `{${parts.join(',')},"s":"x"}`;
  });

/** What `JSON.parse` gives, as [key, value] in order (a key may repeat: the parse keeps the last only). */
function parsed(text: string): [string, unknown][] {
  const out: [string, unknown][] = [];
  const re = /"(\w+)":(\[[^\]]*\])/g;
  for (let m = re.exec(text); m; m = re.exec(text)) for (const v of JSON.parse(m[2]!) as unknown[]) out.push([m[1]!, v]);
  return out;
}

describe('numbers in runs', () => {
  it('give what JSON.parse and the one-by-one reading give, at the same places, cut anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(documents, fc.array(fc.nat({ max: 2000 }), { maxLength: 6 }), async (text, cuts) => {
        const one = await read(text, cuts, false);
        const runs = await read(text, cuts, true);
        expect(runs.got).toEqual(one.got);
        expect(one.got.map(([k, v]) => [k, v])).toEqual(parsed(text));
        for (const [, v, o] of one.got) expect(Object.is(JSON.parse(text.slice(o).match(/^[-+.\w]+/)![0]), v)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('give the same at every cut of a file that holds every spelling', async () => {
    const text = '{"samples":[0,-0,12, -7 ,123456789012345,-999999999999999,1234567890123456,1.5,2e3,-1E-2,\n8,9],"t":[-1,-20,300],"e":[]}';
    const whole = await read(text, [], true);
    expect(whole.got.map(([, v]) => v)).toEqual([...(JSON.parse(text) as { samples: number[] }).samples, -1, -20, 300]);
    expect(Object.is(whole.got[1]![1], -0)).toBe(true);
    for (let c = 1; c < text.length; c++) {
      expect((await read(text, [c], true)).got, `cut at ${c}`).toEqual(whole.got);
      expect((await read(text, [c, c + 1, c + 3], false)).got, `cut at ${c}`).toEqual(whole.got);
    }
  });

  it('hand long arrays over a run at a time, not a number at a time', async () => {
    const values = Array.from({ length: 50_000 }, (_, i) => (i * 7919) % 100_003);
    const text = JSON.stringify({ samples: values });
    const { got, runs } = await read(text, [70_000, 140_000], true, false);
    expect(got.map(([, v]) => v)).toEqual(values);
    expect(runs).toBeGreaterThanOrEqual(Math.ceil(values.length / 8192));
    expect(runs).toBeLessThan(20);
  });

  it('names the byte of an element a run handler refuses, and of a number with a leading zero', async () => {
    const text = '{"samples":[1,2,3,4,5,6,7,8],"timeDeltas":[10,  -20,30,40]}';
    const refuse = (cuts: number[]) =>
      streamJson(
        cutAt(text, cuts),
        {
          element: () => {},
          numbers(key, values, count, places) {
            for (let i = 0; i < count; i++)
              if (values[i]! < 0) throw new ImportError({ file: 't.json', offset: places.offset(i), message: 'negative' });
          },
        },
        't.json',
      );
    // (an element left to the exact scan reaches `element`, which takes anything here)
    for (let c = 0; c < text.length; c++) {
      const result = refuse([c]).then(
        () => 'read',
        (e: ImportError) => e.offset,
      );
      const cutInside = c > text.indexOf('-20') && c <= text.indexOf('-20') + 3;
      if (!cutInside) expect(await result, `cut at ${c}`).toBe(text.indexOf('-20'));
    }
    for (let c = 1; c < 24; c++) await expect(read('{"samples":[1,2,007,4]}', [c], true)).rejects.toThrow('t.json (byte 16): invalid JSON');
  });
});
