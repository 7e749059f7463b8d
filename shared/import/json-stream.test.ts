import { describe, expect, it } from 'vitest';
import { streamJson } from './json-stream';
import { bytesSource, openSource } from './source';

async function run(text: string, chunk = 7, streams?: (k: string) => boolean) {
  const src = await openSource(bytesSource('t.json', text, chunk));
  const elements: [string, unknown, number, number][] = [];
  const values: [string, unknown][] = [];
  const res = await streamJson(
    src.chunks(),
    {
      element: (k, v, o, l) => elements.push([k, v, o, l]),
      value: (k, v) => values.push([k, v]),
      ...(streams ? { streams } : {}),
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
});
