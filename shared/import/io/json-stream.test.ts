import { describe, expect, it } from 'vitest';
import { ImportError } from '../errors';
import { streamJson } from './json-stream';
import { bytesSource, openSource } from './source';

async function run(text: string, chunk = 7, streams?: (k: string) => boolean, places?: boolean) {
  const src = await openSource(bytesSource('t.json', text, chunk));
  const elements: [string, unknown, number, number][] = [];
  const values: [string, unknown][] = [];
  const res = await streamJson(
    src.chunks(),
    {
      element: (k, v, o, l) => elements.push([k, v, o, l]),
      value: (k, v) => values.push([k, v]),
      ...(streams ? { streams } : {}),
      ...(places === undefined ? {} : { places }),
    },
    't.json',
  );
  return { elements, values, res };
}

describe('streamJson', () => {
  it('streams a top-level array with exact byte spans, across chunk boundaries', async () => {
    const text = '[{"a":"x,]}"}, {"b":[1,{"c":2}]} ,3,"s\\"q"]';
    for (const chunk of [1, 2, 5, 1000]) {
      const { elements, res } = await run(text, chunk);
      expect(res).toMatchObject({ root: 'array', truncated: false });
      expect(elements.map((e) => e[1])).toEqual([{ a: 'x,]}' }, { b: [1, { c: 2 }] }, 3, 's"q']);
      for (const [, v, o, l] of elements) expect(JSON.parse(text.slice(o, o + l))).toEqual(v);
    }
  });

  it('streams arrays under a top-level object and passes other values whole', async () => {
    const text = '{"nodes":[{"id":1},{"id":2}],"startTime":5,"meta":{"x":[1]},"samples":[1,2,3],"s":"y"}';
    const { elements, values, res } = await run(text, 3, (k) => k !== 'samples');
    expect(res.root).toBe('object');
    expect(res.truncated).toBe(false);
    expect(elements.map((e) => [e[0], e[1]])).toEqual([
      ['nodes', { id: 1 }],
      ['nodes', { id: 2 }],
    ]);
    expect(values).toEqual([
      ['startTime', 5],
      ['meta', { x: [1] }],
      ['samples', [1, 2, 3]],
      ['s', 'y'],
    ]);
  });

  it('accepts a trace cut off before its closing bracket', async () => {
    const { elements, res } = await run('{"traceEvents":[{"ph":"X"},{"ph":"B"},{"ph":"E", "na', 4);
    expect(elements.map((e) => e[1])).toEqual([{ ph: 'X' }, { ph: 'B' }]);
    expect(res.truncated).toBe(true);
    expect(res.droppedBytes).toBeGreaterThan(0);
  });

  it('accepts a trailing comma and whitespace at a truncation point', async () => {
    const { elements, res } = await run('[{"a":1},\n  ');
    expect(elements.map((e) => e[1])).toEqual([{ a: 1 }]);
    expect(res.truncated).toBe(true);
  });

  it('names the byte offset of invalid JSON', async () => {
    await expect(run('[{"a":1},{"b":nope}]', 4)).rejects.toThrow(/t\.json \(byte 9\): invalid JSON/);
    await expect(run('hello')).rejects.toThrow(/byte 0.*expected JSON/);
  });

  // Element ends of arrays of objects are guessed from `},{` and checked by the parse; these
  // texts hold the pattern where it is no end: in strings, in nested arrays, after other keys.
  const tricky = [
    '[{"id":1,"t":[{"line":1},{"line":2}]},{"id":2,"s":"},{\\"id\\":3}"},{"id":3}]',
    '[{"id":1,"t":[{"id":7},{"id":8}]},{"id":2},{"id":3,"t":[{"id":9} , {"id":10}]}]',
    '[ {"a":1} ,\n {"b":"},{"} , {"a":2},{"\\u0061":3},{ "a":4},{},{"1":0,"a":5}]',
    '[{"pid":1,"args":{"data":{"nodes":[{"callFrame":{}},{"callFrame":{}}]}}},{"pid":2},{"cat":"x"},{"pid":3}]',
  ];

  it('finds every element of arrays of objects, wherever `},{` appears, in any chunking', async () => {
    for (const text of tricky) {
      const expected = JSON.parse(text) as unknown[];
      for (const chunk of [1, 3, 8, 13, 40, 1000]) {
        const { elements } = await run(text, chunk);
        expect(elements.map((e) => e[1])).toEqual(expected);
        for (const [, v, o, l] of elements) expect(JSON.parse(text.slice(o, o + l))).toEqual(v);
      }
    }
  });

  it('without places, hands over the same values and names the place of an element the reader rejects', async () => {
    for (const text of tricky) {
      const expected = JSON.parse(text) as unknown[];
      for (const chunk of [1, 5, 1000]) expect((await run(text, chunk, undefined, false)).elements.map((e) => e[1])).toEqual(expected);
    }
    const text = '{"nodes":[{"id":1,"t":[{"x":1},{"x":2}]},{"id":2},{"bad":true},{"id":4}]}';
    const src = await openSource(bytesSource('t.json', text, 1000));
    const reject = streamJson(
      src.chunks(),
      {
        places: false,
        element(_k, v, offset) {
          if (!(v as { id?: number }).id) throw new ImportError({ file: 't.json', offset, message: 'no id' });
        },
      },
      't.json',
    );
    await expect(reject).rejects.toThrow(`t.json (byte ${text.indexOf('{"bad"')}): no id`);
  });

  it('reads arrays of numbers as JSON.parse does, with their places', async () => {
    const text = '{"samples":[0,-0,12,-7,123456789012345,1234567890123456,1.5,2e3,-1E-2, 8 ,9],"d":[5,6]}';
    for (const chunk of [1, 2, 4, 9, 1000]) {
      const { elements } = await run(text, chunk);
      const got = elements.map((e) => e[1]);
      expect(got).toEqual([0, -0, 12, -7, 123456789012345, 1234567890123456, 1.5, 2e3, -1e-2, 8, 9, 5, 6]);
      expect(Object.is(got[1], -0)).toBe(true);
      for (const [, v, o, l] of elements) expect(JSON.parse(text.slice(o, o + l))).toEqual(v);
    }
    await expect(run('{"samples":[1,2,007]}', 4)).rejects.toThrow(/t\.json \(byte 16\): invalid JSON/);
  });
});

describe('chunks given back', () => {
  it('once each, only when nothing of them is kept: a source that reads into them again changes nothing', async () => {
    const text = JSON.stringify({
      nodes: [{ id: 1, callFrame: { functionName: 'a long name that spans chunks', url: 'x.js' } }, { id: 2 }],
      samples: [1, 2, 1, 2, 123456789, 2],
      meta: { s: 'a value read whole, across chunks' },
      timeDeltas: [10, 20, -3, 40000],
    });
    const want = await run(text, 1 << 20);
    for (const size of [1, 2, 3, 7, 16, 50]) {
      const bytes = new TextEncoder().encode(text);
      const given: Uint8Array[] = [];
      const chunks = async function* () {
        // a copy of each piece, scribbled over as soon as it is given back (as memory read into again would be)
        for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
      };
      const elements: [string, unknown, number, number][] = [];
      const values: [string, unknown][] = [];
      await streamJson(
        chunks(),
        { element: (k, v, o, l) => elements.push([k, v, o, l]), value: (k, v) => values.push([k, v]) },
        't.json',
        (c) => {
          expect(given).not.toContain(c);
          given.push(c);
          c.fill(0x7b);
        },
      );
      expect({ elements, values }, `chunks of ${size}`).toEqual({ elements: want.elements, values: want.values });
      // all but those holding the end are given back
      expect(given.length, `chunks of ${size}`).toBeGreaterThan(Math.ceil(bytes.length / size) - 3);
    }
  });
});
