/**
 * Structured generator for trace-event JSON: spans (`X`, `B`/`E` out of balance, async `b`/`e`,
 * `S`/`F`, instants, metadata) with timestamps out of order, negative, huge or strings, durations
 * huge or negative; CPU samples (`Profile` + `ProfileChunk` with parent links that cycle or point
 * nowhere, the old `CpuProfile`); Hermes `stackFrames` + `samples`; array or object form, closed or
 * cut off. And the deep cases: 100,000 nested `B` (ended, unended or ended out of order) or `X`
 * spans, a 100,000-long `ProfileChunk` parent chain, and span `args` nested 100,000 deep.
 */
import fc from 'fast-check';
import { anyName, anyUrl, indexLike, numberish, someNumber, toJson } from './values';
import type { DeepOptions } from './gen-v8';

const PHASES = ['X', 'B', 'E', 'b', 'e', 'S', 'F', 'i', 'I', 'n', 'M', 'C', 'P', 's', 't', 'f', 'O', 'N', 'D', 'R', '', 'BE'];
const NAMES = [
  'a',
  'b',
  'c',
  'PROMISE',
  'PROMISE_CALLBACK',
  'Timeout',
  'process_name',
  'thread_name',
  'Profile',
  'ProfileChunk',
  'CpuProfile',
  'node',
];

const tsArb = fc.oneof(
  { weight: 10, arbitrary: fc.integer({ min: 0, max: 1000 }) },
  { weight: 2, arbitrary: someNumber },
  { weight: 1, arbitrary: fc.constantFrom<unknown>('15', ' ', 'x', null, '1e400') },
);

const argsArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({}) },
  { weight: 2, arbitrary: fc.record({ name: anyName }) },
  { weight: 2, arbitrary: fc.record({ url: anyUrl, line: numberish, column: numberish }, { requiredKeys: ['url'] }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 'x', 1, [], { data: null }, { data: 7 }) },
);

const cpuNodeArb = (n: number) =>
  fc.record(
    {
      id: fc.oneof({ weight: 10, arbitrary: indexLike(n) }, { weight: 1, arbitrary: numberish }),
      parent: fc.oneof({ weight: 6, arbitrary: indexLike(n) }, { weight: 1, arbitrary: numberish }),
      children: fc.array(indexLike(n), { maxLength: 3 }),
      callFrame: fc.oneof(
        {
          weight: 8,
          arbitrary: fc.record({
            functionName: anyName,
            url: anyUrl,
            lineNumber: numberish,
            columnNumber: numberish,
            scriptId: fc.constant(1),
          }),
        },
        { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 1, 'x') },
      ),
    },
    { requiredKeys: ['id'] },
  );

const profileEventArb: fc.Arbitrary<unknown> = fc.integer({ min: 1, max: 12 }).chain((n) =>
  fc.oneof(
    fc.record({
      name: fc.constant('Profile'),
      ph: fc.constantFrom('P', 'I', 'X'),
      cat: fc.constantFrom('disabled-by-default-v8.cpu_profiler', 'v8'),
      id: fc.constantFrom('0x1', '0x2', 1),
      pid: fc.constantFrom(1, 2),
      tid: fc.constantFrom(1, 2, '1'),
      ts: tsArb,
      args: fc.oneof({ weight: 6, arbitrary: fc.record({ data: fc.record({ startTime: numberish }) }) }, { weight: 1, arbitrary: argsArb }),
    }),
    fc.record({
      name: fc.constant('ProfileChunk'),
      ph: fc.constantFrom('P', 'X'),
      cat: fc.constant('disabled-by-default-v8.cpu_profiler'),
      id: fc.constantFrom('0x1', '0x2', 1),
      pid: fc.constantFrom(1, 2),
      tid: fc.constantFrom(1, 2),
      ts: tsArb,
      args: fc.oneof(
        {
          weight: 8,
          arbitrary: fc.record({
            data: fc.record(
              {
                cpuProfile: fc.record(
                  {
                    nodes: fc.array(cpuNodeArb(n), { maxLength: n }),
                    samples: fc.array(fc.oneof({ weight: 8, arbitrary: indexLike(n) }, { weight: 1, arbitrary: numberish }), {
                      maxLength: 30,
                    }),
                  },
                  { requiredKeys: [] },
                ),
                timeDeltas: fc.oneof({ weight: 6, arbitrary: fc.array(numberish, { maxLength: 32 }) }, { weight: 1, arbitrary: numberish }),
                startTime: numberish,
                endTime: numberish,
              },
              { requiredKeys: ['cpuProfile'] },
            ),
          }),
        },
        { weight: 1, arbitrary: argsArb },
      ),
    }),
    fc.record({
      name: fc.constant('CpuProfile'),
      ph: fc.constant('I'),
      cat: fc.constant('disabled-by-default-devtools.timeline'),
      pid: fc.constantFrom(1, 2),
      tid: fc.constantFrom(1, 2),
      ts: tsArb,
      args: fc.record({
        data: fc.record({
          cpuProfile: fc.record({
            nodes: fc.array(cpuNodeArb(n), { maxLength: n }),
            samples: fc.array(indexLike(n), { maxLength: 30 }),
            timeDeltas: fc.array(numberish, { maxLength: 30 }),
            startTime: numberish,
            endTime: numberish,
          }),
        }),
      }),
    }),
  ),
);

const spanEventArb: fc.Arbitrary<unknown> = fc.record(
  {
    ph: fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom('X', 'B', 'E', 'b', 'e') },
      { weight: 3, arbitrary: fc.constantFrom(...PHASES) },
      { weight: 1, arbitrary: numberish },
    ),
    name: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...NAMES) },
      { weight: 2, arbitrary: anyName },
      { weight: 1, arbitrary: numberish },
    ),
    cat: fc.oneof(fc.constantFrom('v8', 'node', 'node,node.async_hooks', '__metadata', ''), anyName),
    ts: tsArb,
    dur: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 500 }) }, { weight: 2, arbitrary: numberish }),
    tdur: numberish,
    pid: fc.oneof(fc.constantFrom(1, 2, '1'), numberish),
    tid: fc.oneof(fc.constantFrom(1, 2, '1'), numberish),
    id: fc.oneof(fc.constantFrom('0x1', '0x2', 3), numberish),
    id2: fc.oneof(
      fc.record({ local: fc.constantFrom('0x1', '0x2') }),
      fc.record({ global: fc.constantFrom('0x1', '0x2') }),
      fc.constantFrom<unknown>(null, 1, 'x'),
    ),
    scope: fc.constantFrom('s', 1, null),
    args: argsArb,
  },
  { requiredKeys: ['ph', 'ts'] },
);

const eventArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 14, arbitrary: spanEventArb },
  { weight: 3, arbitrary: profileEventArb },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 1, 'x', [], [{ ph: 'X' }], {}) },
);

const hermesArb = fc.integer({ min: 1, max: 10 }).chain((n) =>
  fc.record({
    stackFrames: fc.oneof(
      {
        weight: 8,
        arbitrary: fc
          .array(
            fc.record(
              {
                name: fc.oneof(anyName, fc.constant('fn(http://x/a.js:1:2)')),
                parent: fc.oneof({ weight: 6, arbitrary: indexLike(n + 1) }, { weight: 1, arbitrary: numberish }),
                category: fc.constant('JavaScript'),
                line: numberish,
                column: numberish,
              },
              { requiredKeys: ['name'] },
            ),
            { maxLength: n },
          )
          .map((frames) => Object.fromEntries(frames.map((f, i) => [String(i + 1), f]))),
      },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(null, [], 'x') },
    ),
    samples: fc.array(
      fc.record(
        {
          ts: tsArb,
          tid: fc.constantFrom('1', 2),
          pid: fc.constant(1),
          sf: fc.oneof({ weight: 6, arbitrary: indexLike(n + 2) }, { weight: 1, arbitrary: numberish }),
          weight: fc.constant('1'),
        },
        { requiredKeys: ['ts'] },
      ),
      { maxLength: 30 },
    ),
  }),
);

/** A trace-event file in one of its shapes, sometimes cut off. */
export const traceEvents: fc.Arbitrary<string> = fc
  .record({
    events: fc.array(eventArb, { maxLength: 40 }),
    form: fc.constantFrom('array', 'object', 'object-metadata-first', 'hermes'),
    hermes: hermesArb,
    cut: fc.oneof({ weight: 4, arbitrary: fc.constant(-1) }, { weight: 1, arbitrary: fc.nat() }),
  })
  .map(({ events, form, hermes, cut }) => {
    let text: string;
    if (form === 'array') text = toJson(events);
    else if (form === 'object') text = toJson({ traceEvents: events, metadata: { 'clock-domain': 'x' } });
    else if (form === 'object-metadata-first') text = toJson({ metadata: { a: [1, { b: 2 }] }, traceEvents: events });
    else text = toJson({ traceEvents: events, ...hermes });
    return cut < 0 ? text : text.slice(0, cut % (text.length + 1));
  });

/** 100,000 nested spans on one thread: B/E (ended in order, never, or shuffled), or X. */
export function deepTrace(o: DeepOptions): string {
  const n = o.depth;
  const ev: string[] = [];
  const x = (ts: number, dur: number, i: number) => `{"ph":"X","name":"f${i % 31}","ts":${ts},"dur":${dur},"pid":1,"tid":1}`;
  switch (o.variant) {
    case 0:
    case 1:
    case 2:
      for (let i = 0; i < n; i++) ev.push(`{"ph":"B","name":"f${i % 31}","ts":${i},"pid":1,"tid":1}`);
      // 0: ended innermost first; 1: never ended; 2: ended outermost first (mismatched names)
      if (o.variant === 0) for (let i = n - 1; i >= 0; i--) ev.push(`{"ph":"E","name":"f${i % 31}","ts":${2 * n - i},"pid":1,"tid":1}`);
      if (o.variant === 2) for (let i = 0; i < n; i++) ev.push(`{"ph":"E","name":"g","ts":${n + i},"pid":1,"tid":1}`);
      break;
    case 3:
      // X events written as they complete: innermost first
      for (let i = n - 1; i >= 0; i--) ev.push(x(i, 2 * (n - i), i));
      break;
    case 4: {
      // a ProfileChunk whose nodes form one long parent chain (and a cycle at its top)
      const nodes: string[] = [];
      for (let i = 1; i <= n; i++)
        nodes.push(`{"id":${i},"parent":${i === 1 ? n : i - 1},"callFrame":{"functionName":"f${i % 31}","url":"/a.js","scriptId":1}}`);
      ev.push(
        '{"ph":"P","name":"Profile","id":"0x1","pid":1,"tid":1,"ts":0,"cat":"disabled-by-default-v8.cpu_profiler","args":{"data":{"startTime":0}}}',
      );
      ev.push(
        `{"ph":"P","name":"ProfileChunk","id":"0x1","pid":1,"tid":1,"ts":1,"cat":"disabled-by-default-v8.cpu_profiler","args":{"data":{"cpuProfile":{"nodes":[${nodes.join(',')}],"samples":[${n},${Math.floor(n / 2)},${n + 4}]},"timeDeltas":[1,1,1]}}}`,
      );
      break;
    }
    case 6: {
      // span args nested `depth` deep (JSON.parse copes; anything that recurses over them does not)
      const args = `${'{"a":['.repeat(n)}1${']}'.repeat(n)}`;
      ev.push(`{"ph":"B","name":"f","ts":1,"pid":1,"tid":1,"args":${args}}`, '{"ph":"E","name":"f","ts":2,"pid":1,"tid":1}');
      ev.push(`{"ph":"X","name":"g","ts":3,"dur":1,"pid":1,"tid":1,"args":${args}}`);
      break;
    }
    default:
      // huge and overlapping X spans: durations near the largest double
      for (let i = 0; i < n; i++) ev.push(x(i % 2 === 0 ? -1e308 : 1e308, i % 3 === 0 ? 1.7e308 : i, i));
  }
  const text = `{"traceEvents":[${ev.join(',')}]}`;
  return o.cut ? text.slice(0, Math.floor(text.length * 0.6)) : text;
}
