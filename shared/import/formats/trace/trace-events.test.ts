/** Trace events importer: detection, speedscope's trace-event fixtures (spans and Hermes samples) and variants real files have. */
import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { checkProfile } from '../../../model/integrity';
import type { Profile } from '../../../model/types';
import { fixturePath, readText } from '../../../../test/support/files';
import { SPEEDSCOPE, frameName, load, rootChildren, speedscopeProfiles, stacks } from '../../../../test/support/trace-events';
import { ImportError } from '../../errors';
import { importProfile } from '../../import-profile';
import { bytesSource } from '../../io/source';
import { traceEventsImporter } from './trace-events';
import { timeColumn } from '../../../model/sample-times';

const traceEvent = (f: string) => `${SPEEDSCOPE}/trace-event/${f}`;

/** The total of each thread root, by `pid/tid`. */
function threadTotals(p: Profile): Record<string, number> {
  const out: Record<string, number> = {};
  for (const n of rootChildren(p)) {
    const m = /\((\S+\/\S+)\)$/.exec(frameName(p, n));
    if (m) out[m[1]!] = p.tree.total[n]!;
  }
  return out;
}
/** `pid 0, tid 1` / `p0 (pid 0), p0t0 (tid 0)` / `p2t0 (pid 2, tid 0)` → `0/1`… */
function pidTid(speedscopeName: string): string {
  return `${/pid (\d+)/.exec(speedscopeName)![1]}/${/tid (\d+)/.exec(speedscopeName)![1]}`;
}

describe('trace events: detection', () => {
  it('claims trace JSON from content alone', () => {
    expect(traceEventsImporter.sniff('{"traceEvents":[{"pid":1,"ph":"X"', '')).toBe(true);
    expect(traceEventsImporter.sniff('\r\n[ {"pid": 0, "tid": 0, "ph": "B", "name": "a", "ts": 0},', '')).toBe(true);
    // Chrome 141 writes the metadata block first.
    expect(traceEventsImporter.sniff('{"metadata":{"source":"DevTools","x":{"traceEvents":1}},"traceEvents":[', '')).toBe(true);
    // A cut-off first event still counts when its "ph" was seen.
    expect(
      traceEventsImporter.sniff(
        '[{"cat":"disabled-by-default-devtools.timeline","ph":"I","ts":1,"args":{"data":{"cpuProfile":{"nodes":[',
        '',
      ),
    ).toBe(true);
    for (const f of [
      'trace-event/simple.json',
      'trace-event/simple-object.json',
      'Chrome/141/no-arg-data.json',
      'Chrome/65/simple-timeline.json',
    ]) {
      expect(traceEventsImporter.sniff(readText(`${SPEEDSCOPE}/${f}`).slice(0, 65536), ''), f).toBe(true);
    }
  });

  it('leaves other JSON and text formats alone', () => {
    const heads: Record<string, string> = {
      cpuprofile: readText(`${SPEEDSCOPE}/Chrome/65/simple.cpuprofile`),
      'node cpuprofile': readText(`${SPEEDSCOPE}/node/10.11.0/example.cpuprofile`),
      heapprofile: readText(`${SPEEDSCOPE}/Chrome/69/Heap-20181005T144546.heapprofile`),
      '0x isolate json': gunzipSync(
        readFileSync(fixturePath('samples/baseline/0x/isolate-0x33817a80-6265-6265-v8.log.json.gz')),
      ).toString(),
      '0x ticks': gunzipSync(readFileSync(fixturePath('samples/baseline/0x/ticks.json.gz'))).toString(),
      '0x stacks': gunzipSync(readFileSync(fixturePath('samples/baseline/0x/stacks.6265.json.gz'))).toString(),
      'crypto ticks': readText(fixturePath('corpus/0x/test/fixtures/crypto-ticks.json')),
      folded: 'main;handle;parse 12\nmain;idle 3\n',
      'perf script': readText(fixturePath('samples/baseline/perf.script.txt')),
      'not events': '[{"a":1},{"b":2}]',
      empty: '[]',
    };
    for (const [what, text] of Object.entries(heads)) {
      expect(traceEventsImporter.sniff(text.slice(0, 65536), ''), what).toBe(false);
    }
  });
});

describe('trace events: speedscope trace-event fixtures', () => {
  const files = readdirSync(`${SPEEDSCOPE}/trace-event`).filter((f) => f.endsWith('.json') && !f.includes('.expected'));
  const sampled = new Set(['simple-with-samples.json', 'multi-thread-with-samples.json']);

  for (const f of files.filter((x) => !sampled.has(x))) {
    it(`matches speedscope's per-thread span time for ${f}`, async () => {
      const expected = speedscopeProfiles(traceEvent(f));
      for (const name of [f, '']) {
        const p = await load(traceEvent(f), name, 64);
        expect(p.kind).toBe('spans');
        expect(p.unit).toBe('microseconds');
        const want = Object.fromEntries(expected.map((e) => [pidTid(e.name), e.total_non_idle_weight]));
        // A thread whose spans never balance out still has a root (mismatched-name.json: 0 µs).
        expect(threadTotals(p)).toEqual(want);
        expect(p.traceStats!.reduce((n, s) => n + s.count, 0)).toBeGreaterThan(0);
        if (f.startsWith('simple-partial')) expect(p.meta.warnings.join('\n')).toMatch(/ends before the closing "\]"/);
      }
    });
  }

  it('nests simple.json like speedscope and names the thread', async () => {
    const p = await load(traceEvent('simple.json'), 'simple.json');
    expect(stacks(p)).toEqual([
      'thread (0/0);alpha 2',
      'thread (0/0);alpha;beta 3',
      'thread (0/0);alpha;beta;gamma 5',
      'thread (0/0);alpha;beta;epsilon 4',
    ]);
    expect(p.meta.warnings).toEqual([]);
  });

  it('reports unbalanced input as warnings', async () => {
    const tooMany = await load(traceEvent('too-many-end-events.json'), '');
    // gamma and delta end (ts 5) while beta is open: speedscope ignores them.
    expect(tooMany.meta.warnings).toEqual(['2 end ("E") event(s) did not match the name of the span open on their thread; ignored']);
    const empty = await load(traceEvent('end-event-with-empty-stack.json'), '');
    expect(empty.meta.warnings).toEqual(['1 end ("E") event(s) had no open span on their thread; ignored']);
    const onlyBegin = await load(traceEvent('only-begin-events.json'), '');
    expect(onlyBegin.meta.warnings).toEqual(["3 span(s) were never ended; they end at their thread's last event"]);
  });

  it('uses process and thread names for the thread roots', async () => {
    const p = await load(traceEvent('multiprocess.json'), '');
    expect(rootChildren(p).map((n) => frameName(p, n))).toEqual([
      'p0t0 (0/0)',
      'p0t1 (0/1)',
      'p1t0 (1/0)',
      'p1t1 (1/1)',
      'p2t0 (2/0)',
      'p2t1 (2/1)',
      'p3 (3/0)',
      'p3 (3/1)',
    ]);
    expect(p.meta.processNames).toEqual({ 0: 'p0', 1: 'p1', 3: 'p3' });
    expect(p.meta.threadNames!['2:1']).toBe('p2t1');
  });

  it('keeps the source position Hermes puts in span args', async () => {
    const p = await load(traceEvent('hermes-multiple-frames.json'), '');
    const beta = p.frames.name.indexOf('beta');
    expect(p.frames.file[beta]).toMatch(/metro-runtime\/src\/polyfills\/require\.js$/);
    expect([p.frames.line[beta], p.frames.column[beta], p.frames.category[beta]]).toEqual([54, 12, 1 /* dependency */]);
  });

  for (const f of sampled) {
    it(`reads Hermes samples in ${f} like speedscope`, async () => {
      const expected = speedscopeProfiles(traceEvent(f));
      const raw = JSON.parse(readText(traceEvent(f)));
      for (const name of [f, '']) {
        const p = await load(traceEvent(f), name);
        expect([p.kind, p.unit]).toEqual(['sampled', 'samples']);
        const [pid, tid] = /\((\S+)\/(\S+)\)$/.exec(p.meta.thread!)!.slice(1);
        const mine = raw.samples.filter((s: { pid: number; tid: string }) => String(s.pid) === pid && s.tid === tid);
        expect(p.samples!.length).toBe(mine.length);
        expect(p.tree.total[0]).toBe(mine.length);
        // speedscope weights each sample by the time to the next one.
        const want = expected.find((e) => pidTid(e.name) === `${pid}/${tid}`)!;
        expect(timeColumn(p.samples!)[p.samples!.length - 1]! - timeColumn(p.samples!)[0]!).toBe(want.total_weight);
      }
    });
  }

  it('picks the busier Hermes thread and says so', async () => {
    const p = await load(traceEvent('multi-thread-with-samples.json'), '');
    expect(p.meta.thread).toBe('hermes (7512/2)');
    expect(p.meta.warnings).toEqual(['samples of 1 other thread(s) are not shown: mqt_js (7512/1) (3 samples)']);
    expect(stacks(p)).toEqual(['[root thread 2] 3', '[root thread 2];function3 1', '[root thread 2];function4 1']);
  });
});

describe('trace events: variants real files have', () => {
  const simple = readText(traceEvent('simple.json'));
  const simpleTotal = 14;

  it('reads CRLF line ends and a byte-order mark', async () => {
    const text = '\uFEFF' + simple.replace(/\n/g, '\r\n');
    const p = await importProfile(bytesSource('', text, 7));
    expect(checkProfile(p)).toEqual([]);
    expect(threadTotals(p)).toEqual({ '0/0': simpleTotal });
  });

  it('accepts an array whose closing bracket and last event are missing', async () => {
    const events = Array.from({ length: 100 }, (_, i) => `{"pid":1,"tid":1,"ph":"X","name":"f${i % 3}","ts":${i * 10},"dur":5}`);
    const cut = `[${events.join(',\n')},\n{"pid":1,"tid":1,"ph":"X","na`;
    const p = await importProfile(bytesSource('', cut));
    expect(threadTotals(p)).toEqual({ '1/1': 500 });
    expect(p.meta.warnings[0]).toMatch(
      /ends before the closing "\]".*read 100 complete event\(s\), dropped an incomplete last event of 29 bytes/,
    );
  });

  it('refuses a trace without events, naming the file', async () => {
    for (const text of ['{"traceEvents":[]}', '[]', '{"traceEvents":[],"metadata":{"source":"x"}}']) {
      const err = await traceEventsImporter
        .parse({
          file: 'empty.json',
          source: {
            name: 'empty.json',
            head: text,
            gzipped: false,
            encoding: 'utf-8',
            chunks: () => one(text),
            recycle: () => {},
            close: () => {},
          },
          options: {},
        })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ImportError);
      expect((err as Error).message).toMatch(/^empty\.json: the trace holds no events/);
    }
  });

  it('reports broken JSON with its byte offset', async () => {
    const err = await importProfile(bytesSource('bad.json', '[{"ph":"X","ts":1,"dur":2},{"ph":"X",ts:2}]')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).offset).toBe(27);
  });

  it('nests 50,000 B/E levels without recursion', async () => {
    const depth = 50_000;
    const parts: string[] = [];
    for (let i = 0; i < depth; i++) parts.push(`{"ph":"B","pid":1,"tid":1,"name":"f${i % 5}","ts":${i}}`);
    for (let i = depth - 1; i >= 0; i--) parts.push(`{"ph":"E","pid":1,"tid":1,"name":"f${i % 5}","ts":${2 * depth - i}}`);
    const p = await importProfile(bytesSource('deep.json', `[${parts.join(',')}]`));
    expect(checkProfile(p)).toEqual([]);
    expect(p.tree.length).toBe(depth + 2);
    expect(Math.max(...p.tree.depth)).toBe(depth + 1);
    expect(threadTotals(p)).toEqual({ '1/1': 2 * depth });
    expect(p.traceStats!.find((s) => s.name === 'f0' && s.phase === 'B')!.duration).toBe(
      Array.from({ length: depth / 5 }, (_, k) => 2 * (depth - 5 * k)).reduce((a, b) => a + b, 0),
    );
  });

  it('keeps async span durations where no callbacks nest inside them', async () => {
    const ev = (ph: string, name: string, id: string, ts: number) => JSON.stringify({ pid: 1, tid: 1, ph, cat: 'net', name, id, ts });
    const text = `[${[ev('b', 'fetch', '1', 0), ev('e', 'fetch', '1', 25), ev('b', 'fetch', '2', 5), ev('e', 'fetch', '2', 15)].join(',')}]`;
    const p = await importProfile(bytesSource('', text));
    expect(stacks(p)).toEqual(['async;fetch 35']);
  });

  it('keeps the wall time the spans of each event type cover, beside their summed duration', async () => {
    const ev = (e: Record<string, unknown>) => JSON.stringify({ pid: 1, cat: 'c', ...e });
    const text = `[${[
      // async: 0–25 and 5–15 overlap
      ev({ tid: 1, ph: 'b', name: 'fetch', id: '1', ts: 0 }),
      ev({ tid: 1, ph: 'b', name: 'fetch', id: '2', ts: 5 }),
      ev({ tid: 1, ph: 'e', name: 'fetch', id: '2', ts: 15 }),
      ev({ tid: 1, ph: 'e', name: 'fetch', id: '1', ts: 25 }),
      // complete events on two threads: 0–10 and 5–20, and one apart at 100–101
      ev({ tid: 1, ph: 'X', name: 'work', ts: 0, dur: 10 }),
      ev({ tid: 2, ph: 'X', name: 'work', ts: 5, dur: 15 }),
      ev({ tid: 2, ph: 'X', name: 'work', ts: 100, dur: 1 }),
      // begin/end pairs on two threads: 30–40 and 35–50
      ev({ tid: 1, ph: 'B', name: 'step', ts: 30 }),
      ev({ tid: 2, ph: 'B', name: 'step', ts: 35 }),
      ev({ tid: 1, ph: 'E', name: 'step', ts: 40 }),
      ev({ tid: 2, ph: 'E', name: 'step', ts: 50 }),
      // an instant covers nothing
      ev({ tid: 1, ph: 'i', name: 'mark', ts: 60, s: 't' }),
    ].join(',')}]`;
    const p = await importProfile(bytesSource('', text));
    const of = (name: string, ph: string) => {
      const s = p.traceStats!.find((x) => x.name === name && x.phase === ph)!;
      return [s.duration, s.covered, s.spans ? [...s.spans] : undefined];
    };
    expect(of('fetch', 'b')).toEqual([35, 25, [0, 25]]);
    expect(of('work', 'X')).toEqual([26, 21, [0, 20, 100, 101]]);
    expect(of('step', 'B')).toEqual([25, 20, [30, 50]]);
    expect(of('mark', 'i')).toEqual([0, undefined, undefined]);
  });

  it('pairs async spans by category and id and nests them per id', async () => {
    const ev = (ph: string, name: string, id: string, ts: number, cat = 'node,node.async_hooks') =>
      JSON.stringify({ pid: 7, tid: 7, ph, cat, name, id, ts, args: {} });
    const text = JSON.stringify({ traceEvents: [] }).replace(
      '[]',
      `[${[
        ev('b', 'PROMISE', '0x1', 0),
        ev('b', 'PROMISE', '0x2', 5),
        ev('b', 'PROMISE_CALLBACK', '0x1', 10),
        ev('e', 'PROMISE_CALLBACK', '0x1', 14),
        ev('e', 'PROMISE', '0x1', 20),
        ev('n', 'mark', '0x1', 21),
        // same id, other category: a different span
        ev('e', 'PROMISE', '0x2', 30, 'other'),
        ev('e', 'PROMISE', '0x2', 35),
        ev('b', 'Timeout', '0x3', 40),
      ].join(',')}]`,
    );
    const p = await importProfile(bytesSource('', text));
    expect(checkProfile(p)).toEqual([]);
    // Callbacks nest in their resource, so a resource is as wide as its callbacks ran; its
    // lifetime (PROMISE 0x1: 20 µs, 0x2: 30 µs) stays in the statistics below.
    expect(stacks(p)).toEqual(['async;PROMISE;PROMISE_CALLBACK 4']);
    const stat = (name: string, ph: string, cat = 'node,node.async_hooks') =>
      p.traceStats!.find((s) => s.name === name && s.phase === ph && s.category === cat)!;
    expect([stat('PROMISE', 'b').count, stat('PROMISE', 'b').duration]).toEqual([2, 50]);
    // 0x1 lived 0–20 µs and 0x2 5–35 µs: 50 µs summed, 35 µs of wall time covered.
    expect([stat('PROMISE', 'b').covered, [...stat('PROMISE', 'b').spans!]]).toEqual([35, [0, 35]]);
    expect(stat('PROMISE_CALLBACK', 'b').duration).toBe(4);
    expect(stat('mark', 'n').count).toBe(1);
    expect(stat('PROMISE', 'e', 'other').count).toBe(1);
    expect(p.meta.warnings).toEqual([
      '1 async span(s) never ended and are left out of "async" (Timeout ×1)',
      '1 async end event(s) had no matching begin; ignored',
    ]);
  });
});

async function* one(text: string): AsyncIterable<Uint8Array> {
  yield new TextEncoder().encode(text);
}
