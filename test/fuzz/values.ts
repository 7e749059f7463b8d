/**
 * Building blocks of the structured fuzz generators: numbers and strings that importers find hard
 * (huge, negative, -0, not numbers at all, names that are also `Object.prototype` keys), and JSON
 * text with tokens JavaScript values cannot express (`1e400`, `-0`, 30-digit integers).
 */
import fc from 'fast-check';

const RAW = /"@@raw:([^"@]*)@@"/g;

/** A JSON token written as is (`raw('1e400')`); only meaningful inside a value passed to `toJson`. */
export function raw(token: string): string {
  return `@@raw:${token}@@`;
}

/** `JSON.stringify`, with `raw` tokens put in verbatim. Not for deep values (it recurses). */
export function toJson(v: unknown): string {
  return JSON.stringify(v).replace(RAW, '$1');
}

/** Numbers at and past the edges: JSON.parse turns `1e400` into Infinity, `-0` into -0. */
export const extremeNumber: fc.Arbitrary<number | string> = fc.constantFrom<number | string>(
  0,
  raw('-0'),
  -1,
  0.5,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  1e21,
  1e300,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE,
  raw('1e400'),
  raw('-1e400'),
  raw('123456789012345678901234567890'),
);

/** Mostly small integers (so that ids collide and point at each other), sometimes anything. */
export const someNumber: fc.Arbitrary<number | string> = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: -3, max: 40 }) },
  { weight: 3, arbitrary: fc.integer() },
  { weight: 2, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 3, arbitrary: extremeNumber },
);

/** JSON values of the wrong type where a number is expected. */
export const notANumber: fc.Arbitrary<unknown> = fc.constantFrom<unknown>(null, true, false, '', '12', 'x', '1e400', [], {}, [1], { a: 1 });

/** A number most of the time, something else sometimes. */
export const numberish: fc.Arbitrary<unknown> = fc.oneof({ weight: 10, arbitrary: someNumber }, { weight: 1, arbitrary: notANumber });

/** Names that break naive code: prototype keys, tier markers, separators, control and odd Unicode. */
export const trickyName: fc.Arbitrary<string> = fc.constantFrom(
  '',
  ' ',
  '(root)',
  '(program)',
  '(idle)',
  '(garbage collector)',
  '(anonymous)',
  '__proto__',
  'constructor',
  'length',
  'toString',
  'hasOwnProperty',
  '*',
  '~',
  '*opt',
  '~interp',
  '^base',
  '+maglev',
  '* x',
  'a;b',
  'x y',
  'a->b',
  '\t',
  '\u0000',
  '\ud800',
  '\ufeff',
  'é日本',
  'node:internal/timers',
  '/srv/app/node_modules/dd-trace/x.js',
  'RegExp:[&<>"\']',
  ')',
  '(',
  '"',
  '\\',
  '\n',
  '\r',
  // what a name may hold to drive a terminal, reorder text or become markup in a report
  'title\u001b]0;owned\u0007\u001b[2J',
  'isAdmin\u202e\u2066 // check\u2069\u2066',
  '\u0085\u009b31m',
  '<img src=x onerror=alert(1)>',
  'main\nforged;evil_frame 999999',
);

/** Any name: plain, tricky, random text or random UTF-16 (lone surrogates included). */
export const anyName: fc.Arbitrary<string> = fc.oneof(
  { weight: 60, arbitrary: fc.constantFrom('main', 'handler', 'parse', 'emit', 'write', 'a', 'b', 'c') },
  { weight: 25, arbitrary: trickyName },
  { weight: 10, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
);

/** Script URLs and paths as V8 and perf write them, plus junk. */
export const anyUrl: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.constantFrom(
      '',
      'node:events',
      'node:internal/main/run_main_module',
      'file:///srv/app/server.js',
      '/srv/app/node_modules/fastify/lib/route.js',
      'https://example.com/app.js',
      'internal/bootstrap/node.js',
      'native dummy.js',
      'evalmachine.<anonymous>',
    ),
  },
  { weight: 1, arbitrary: anyName },
);

/** `count` picks in `0 … n-1` (for ids that point at each other) and sometimes past it. */
export function indexLike(n: number): fc.Arbitrary<number> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min: 0, max: Math.max(0, n - 1) }) },
    { weight: 1, arbitrary: fc.integer({ min: -2, max: n + 5 }) },
  );
}
