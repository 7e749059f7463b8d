/**
 * Structured generators for 0x output: `ticks.json` (ticks of code entries with odd names, types
 * and kinds), `isolate-*-v8.log.json` (code entries and ticks whose `s` stacks index past the code,
 * with negative, fractional, string and prototype-key indices, ticks before code) and the trees
 * embedded in `flamegraph.html` (odd escapes, numbers, unbalanced brackets, 100,000-deep trees).
 */
import fc from 'fast-check';
import type { DeepOptions } from './gen-v8';
import { anyName, indexLike, numberish, toJson } from './values';

const TYPES = ['JS', 'CPP', 'SHARED_LIB', 'CODE', 'WASM', '', 'js', '__proto__'];
const KINDS = [
  'Unopt',
  'Sparkplug',
  'Baseline',
  'Maglev',
  'Opt',
  'Turbofan',
  'Builtin',
  'BytecodeHandler',
  'RegExp',
  'Stub',
  '__proto__',
  'constructor',
  'toString',
  '',
];

const codeNameArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      'handler /srv/app/server.js:12:3',
      ' :1:1',
      'get pathname node:internal/url:1059:15',
      '_createParamsObject :4:41',
      'wasm-to-js:i:i',
      't _ssl_write',
      '/usr/lib/x86_64-linux-gnu/libc.so.6',
      '/srv/app/node_modules/0x/lib/preload/no-cluster.js:1:1',
      'x /a.js:99999999999999999999:1',
      '__write@@GLIBC_2.2.5',
    ),
  },
  { weight: 2, arbitrary: anyName },
);

const entryArb: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record(
      {
        name: fc.oneof({ weight: 8, arbitrary: codeNameArb }, { weight: 1, arbitrary: numberish }),
        type: fc.oneof(fc.constantFrom(...TYPES), numberish),
        kind: fc.oneof(fc.constantFrom(...KINDS), numberish),
        func: numberish,
        tm: numberish,
      },
      { requiredKeys: ['name'] },
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 1, 'x', [], {}) },
);

/** 0x `ticks.json`. */
export const zeroExTicks: fc.Arbitrary<string> = fc
  .record({
    ticks: fc.array(
      fc.oneof(
        { weight: 10, arbitrary: fc.array(entryArb, { maxLength: 8 }) },
        { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 1, {}, 'x') },
      ),
      { minLength: 1, maxLength: 20 },
    ),
    cut: fc.oneof({ weight: 4, arbitrary: fc.constant(-1) }, { weight: 1, arbitrary: fc.nat() }),
  })
  .map(({ ticks, cut }) => {
    // keep a JS entry first so that the head says "ticks.json" often enough
    const text = toJson([[{ name: 'main /a.js:1:1', type: 'JS', kind: 'Opt' }], ...ticks]);
    return cut < 0 ? text : text.slice(0, cut % (text.length + 1));
  });

const stackIndexArb = (n: number): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 10, arbitrary: indexLike(n) },
    { weight: 2, arbitrary: numberish },
    { weight: 1, arbitrary: fc.constantFrom<unknown>('length', '__proto__', 'constructor', '0', '1', -1, 1.5, 1e21, 2 ** 32) },
  );

/** `node --prof-process --preprocess` JSON, as 0x leaves it. */
export const zeroExV8Json: fc.Arbitrary<string> = fc.integer({ min: 1, max: 16 }).chain((n) =>
  fc
    .record({
      code: fc.array(entryArb, { minLength: n, maxLength: n }),
      ticks: fc.array(
        fc.oneof(
          {
            weight: 10,
            arbitrary: fc.record(
              {
                tm: numberish,
                vm: fc.constant(6),
                s: fc.oneof({ weight: 8, arbitrary: fc.array(stackIndexArb(n), { maxLength: 12 }) }, { weight: 1, arbitrary: numberish }),
              },
              { requiredKeys: ['s'] },
            ),
          },
          { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 1, [], 'x') },
        ),
        { maxLength: 20 },
      ),
      ticksFirst: fc.boolean(),
      cut: fc.oneof({ weight: 4, arbitrary: fc.constant(-1) }, { weight: 1, arbitrary: fc.nat() }),
    })
    .map(({ code, ticks, ticksFirst, cut }) => {
      const text = ticksFirst
        ? toJson({ code: [], ticks, functions: [], code2: code }).replace('"code2"', '"code"')
        : toJson({ code, ticks, functions: [] });
      return cut < 0 ? text : text.slice(0, cut % (text.length + 1));
    }),
);

/** The start of 0x's page, as its template writes it. */
export const HTML_HEAD =
  '\n    <html>\n    <head>\n      <meta charset="utf-8">\n      <style> /*! TACHYONS v4.12.0 | http://tachyons.io */ body{margin:0}</style>\n    </head>\n    <body><script>';
const HTML_TAIL = ', {"title":"node server.js","kernelTracing":false})</script></body></html>\n';

interface TreeNode {
  name: unknown;
  fn?: unknown;
  S?: unknown;
  top: unknown;
  value?: unknown;
  children?: TreeNode[];
}

const treeNodeArb: fc.Arbitrary<TreeNode> = fc.record(
  {
    name: fc.oneof(
      {
        weight: 6,
        arbitrary: fc.constantFrom(
          'handler /a.js:1:2',
          '__write [CPP]',
          'x [SHARED_LIB]',
          '(anonymous) [eval]:1:1',
          'f [CODE:RegExp]',
          'all stacks',
          'y [INIT]',
          '*emit node:events:1:1',
        ),
      },
      { weight: 2, arbitrary: anyName },
      { weight: 1, arbitrary: numberish },
    ),
    fn: anyName,
    S: fc.oneof(fc.integer({ min: 0, max: 5 }), numberish),
    top: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 50 }) }, { weight: 2, arbitrary: numberish }),
    value: numberish,
  },
  { requiredKeys: ['name', 'top'] },
);

/** A 0x `flamegraph.html` with random trees; sometimes with raw damage inside the embedded JSON. */
export const zeroExHtml: fc.Arbitrary<string> = fc
  .record({
    nodes: fc.array(treeNodeArb, { minLength: 1, maxLength: 30 }),
    parents: fc.array(fc.nat(), { maxLength: 30 }),
    which: fc.constantFrom('both', 'merged', 'unmerged', 'neither'),
    damage: fc.oneof(
      { weight: 6, arbitrary: fc.constant('') },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '\\x',
          '\\u12',
          '\\ud800',
          '\n',
          '1e400',
          'NaN',
          '}',
          ']',
          '[',
          '{',
          '"',
          'tru',
          '-',
          '+1',
          '1.2.3',
          '\\',
        ),
      },
    ),
    damageAt: fc.nat(),
    cut: fc.oneof({ weight: 5, arbitrary: fc.constant(-1) }, { weight: 1, arbitrary: fc.nat() }),
  })
  .map(({ nodes, parents, which, damage, damageAt, cut }) => {
    const all: TreeNode[] = nodes.map((n) => ({ ...n, children: [] }));
    for (let i = 1; i < all.length; i++) all[(parents[i - 1] ?? 0) % i]!.children!.push(all[i]!);
    const trees: Record<string, unknown> = {};
    if (which === 'both' || which === 'merged') trees.merged = all[0];
    if (which === 'both' || which === 'unmerged') trees.unmerged = all[0];
    if (which === 'neither') trees.other = all[0];
    let json = toJson(trees);
    if (damage !== '') {
      const p = damageAt % (json.length + 1);
      json = json.slice(0, p) + damage + json.slice(p);
    }
    const text = `${HTML_HEAD}visualizer(${json}${HTML_TAIL}`;
    return cut < 0 ? text : text.slice(0, cut % (text.length + 1));
  });

/** 0x files with very deep stacks: a tick of `depth` entries, a v8 JSON tick as deep, or a tree that deep. */
export function deepZeroEx(o: DeepOptions): string {
  const n = o.depth;
  let text: string;
  if (o.variant <= 1) {
    const entries: string[] = [];
    for (let i = 0; i < n; i++) entries.push(`{"name":"f${i % 97} /a.js:${i}:1","type":"JS","kind":"Opt"}`);
    text = `[[${entries.join(',')}],[{"name":"main /a.js:1:1","type":"JS","kind":"Opt"}]]`;
  } else if (o.variant <= 3) {
    const s: number[] = [];
    for (let i = 0; i < n; i++) s.push(i % 50, 0);
    const code: string[] = [];
    for (let i = 0; i < 50; i++) code.push(`{"name":"f${i} /a.js:${i}:1","type":"JS","kind":"Opt"}`);
    text = `{"code":[${code.join(',')}],"ticks":[{"tm":1,"vm":6,"s":[${s.join(',')}]}]}`;
  } else {
    const open: string[] = [];
    for (let i = 0; i < n; i++)
      open.push(`{"S":1,"name":"f${i % 97} /a.js:${i}:1","fn":"f${i % 97} /a.js:${i}:1","value":${n - i},"top":1,"children":[`);
    text = `${HTML_HEAD}visualizer({"unmerged":{"name":"all stacks","value":${n},"top":0,"children":[${open.join('')}${']}'.repeat(n)}]}}${HTML_TAIL}`;
  }
  return o.cut ? text.slice(0, Math.floor(text.length * 0.6)) : text;
}
