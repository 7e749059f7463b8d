/**
 * Structured generators for the line formats: `perf script` text (headers with odd process names,
 * pid/tid forms, cpu and time columns present or not, periods 400 digits long, event names with
 * modifiers or none; frame lines with or without address, symbol or dso, stray parentheses; blank
 * lines missing, comments, `perf report` banners) and folded stacks (empty frames, huge, fractional
 * and malformed counts, separators, lines without counts). Deep cases: one sample or one line with
 * 100,000 frames, and lines far longer than any real one.
 */
import fc from 'fast-check';
import type { DeepOptions } from './gen-v8';
import { anyName } from './values';

const choice = <T>(...xs: T[]) => fc.constantFrom(...xs);

const commArb = fc.oneof(
  { weight: 6, arbitrary: choice('node', 'V8 WorkerThread', 'java', 'swapper', 'dd', 'perf-exec', 'iperf') },
  { weight: 2, arbitrary: choice('x', '1', 'a b 12', 'node 1', '', ' ', 'libuv-worker', 'node\t') },
  { weight: 1, arbitrary: anyName },
);

const pidArb = choice(' 1234', ' 1234/1235', '  99', ' /12', ' 12/', ' x', '', ' 0', ' 99999999999999999999', ' 1234/');
const cpuArb = choice(' [000]', ' [001]', '', ' [x]', ' []', ' [0');
const timeArb = choice(' 3240.976978:', ' 12:', ' 1.5:', '', ' 99999999999999999999.999999:', ' -1.0:', ' .5:', ' 1e5:', ' 3240.976978');
const periodArb = fc.oneof(
  { weight: 4, arbitrary: choice(' 10101010', ' 1', ' 250000', '') },
  { weight: 1, arbitrary: choice(' 0', ` ${'9'.repeat(400)}`, ' 18446744073709551615', ' -5', ' 1.5', ' 00012') },
);
const eventArb = choice(
  ' cpu-clock:',
  ' cpu-clock:pppH:',
  ' cycles:u:',
  ' instructions:',
  ' sched:sched_switch:',
  ' page-faults:',
  ' :',
  '',
  ' cpu-clock',
  ' task-clock:',
  ' a:b:c:',
);

const headerArb: fc.Arbitrary<string> = fc
  .tuple(commArb, pidArb, cpuArb, timeArb, periodArb, eventArb, choice('', ' ', '\t', ' junk after'))
  .map((parts) => parts.join(''));

const symbolArb = fc.oneof(
  {
    weight: 6,
    arbitrary: choice(
      'JS:^EventEmitter.init node:events:347:29+0x481',
      'JS:*handler /srv/app/server.js:12:3',
      'JS:~ /srv/app/x.js:14:26',
      'LazyCompile:~body_0 evalmachine.<anonymous>:1',
      'Builtins_InterpreterEntryTrampoline+0xdc',
      'v8::internal::(anonymous namespace)::Invoke+0x12b',
      '[unknown]',
      'read',
      'Ljava/lang/Thread;::run',
      'a->b->c',
      'RegExp:[&<>"\']',
      'net/http.(*Client).Do',
      'get headers /srv/app/x.js:1:1',
    ),
  },
  {
    weight: 2,
    arbitrary: choice('', ' ', '(anon)', 'x;y', 'f+0x', 'JS:', 'JS:* ', 'JS:~f :1:1', 'a (b) c', '->', 'f /x.js:99999999999999999999:1'),
  },
  { weight: 1, arbitrary: anyName },
);
const dsoArb = fc.oneof(
  {
    weight: 6,
    arbitrary: choice(
      '(/tmp/perf-6394.map)',
      '([kernel.kallsyms])',
      '([unknown])',
      '(/usr/bin/node)',
      '(/lib/x86_64-linux-gnu/libc-2.15.so)',
    ),
  },
  {
    weight: 2,
    arbitrary: choice(
      '',
      '()',
      '(a b)',
      '(a)b)',
      '(x',
      'x)',
      '(/tmp/perf-1.map) trailing',
      '(( ))',
      '([kernel.kallsyms])/libpthread-2.19.so)',
    ),
  },
);
const addressArb = choice(
  '7f4d74061181',
  '0',
  'ffffffff81000000',
  '',
  'xyz',
  '00000000000000000000000000000000000',
  'ffffffffffffffffffff',
);

const frameLineArb: fc.Arbitrary<string> = fc
  .tuple(choice('\t    ', '\t', ' ', '', '        '), addressArb, choice(' ', '  ', '\t'), symbolArb, choice(' ', ''), dsoArb)
  .map((parts) => parts.join(''));

/** One `perf script` sample: header, frame lines, what ends it. */
export const perfSample: fc.Arbitrary<string> = fc
  .tuple(headerArb, fc.array(frameLineArb, { maxLength: 12 }), choice('\n', '\n', '', '\n\n', ' \n', '\t\n'))
  .map(([h, frames, sep]) => [h, ...frames].join('\n') + '\n' + sep);

/** `perf script` text. */
export const perfScript: fc.Arbitrary<string> = fc
  .record({
    banner: fc.oneof(
      { weight: 3, arbitrary: fc.constant('') },
      {
        weight: 1,
        arbitrary: choice(
          '# ========\n# captured on: x\n# perf version : 5.10\n# ========\n#\n',
          '# Overhead  Command\n',
          '# Samples: 10 of event cycles\n',
          'PERFILE2',
        ),
      },
    ),
    samples: fc.array(perfSample, { maxLength: 16 }),
    strays: fc.array(fc.tuple(fc.nat(), fc.oneof(frameLineArb, choice('junk', '#', '# comment', '   ', 'x 1'))), { maxLength: 3 }),
  })
  .map(({ banner, samples, strays }) => {
    const lines = samples.join('').split('\n');
    for (const [at, text] of strays) lines.splice(at % (lines.length + 1), 0, text);
    return banner + lines.join('\n');
  });

const countArb = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 1000 }).map(String) },
  {
    weight: 3,
    arbitrary: choice(
      '12.5',
      '1.',
      '007',
      '9'.repeat(400),
      `${'9'.repeat(308)}.5`,
      '-1',
      '1e5',
      'NaN',
      '',
      '0x10',
      '١٢',
      '18446744073709551616',
      '1.7976931348623157e308',
    ),
  },
);

const foldedFrameArb = fc.oneof(
  { weight: 8, arbitrary: choice('main', 'a', 'b', 'handler', 'node', 'do_syscall_64_[k]', 'java_[j]', 'x y', '[unknown]') },
  { weight: 2, arbitrary: choice('', ' ', '\t', 'a b 1', '__proto__', '(root)', '#x') },
  { weight: 1, arbitrary: anyName },
);

/** One folded line, or a line that is not one. */
export const foldedLine: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc
      .tuple(fc.array(foldedFrameArb, { minLength: 0, maxLength: 8 }), choice(' ', ' ', '\t', '  ', '\u00a0', ' \t'), countArb)
      .map(([frames, sep, count]) => `${frames.join(';')}${sep}${count}`),
  },
  { weight: 1, arbitrary: choice('', '# comment', '// comment', 'no count here', ';;;', ' 12', '12', 'a;b', '\r') },
);

/** Folded stacks. */
export const folded: fc.Arbitrary<string> = fc
  .tuple(fc.array(foldedLine, { minLength: 1, maxLength: 30 }), choice('\n', '\r\n'), fc.boolean())
  .map(([lines, eol, finalEol]) => lines.join(eol) + (finalEol ? eol : ''));

/** One sample with `depth` frames, or a very long line; variants change the frame text. */
export function deepPerf(o: DeepOptions): string {
  const n = o.depth;
  const frames: string[] = [];
  if (o.variant === 5) {
    // one header whose comm is 200,000 characters, then a frame
    return `${'x '.repeat(100_000)}1 1.0: 1 cpu-clock:\n\tffff a (b)\n`;
  }
  if (o.variant === 4) {
    // a frame line holding 50,000 " (" without a closing parenthesis
    return `node 1 [000] 1.0: 1 cpu-clock:\n\tffff f${' ('.repeat(50_000)}\n\n`;
  }
  for (let i = 0; i < n; i++)
    frames.push(
      `\t${(0x1000 + i).toString(16)} f${i % 97}${o.variant === 1 ? `+0x${i.toString(16)}` : ''} (${o.variant === 2 ? '/tmp/perf-1.map' : '/usr/bin/node'})`,
    );
  const text = `node 1 [000] 1.000000: 1 cpu-clock:\n${frames.join('\n')}\n\nnode 1 [000] 2.000000: 1 cpu-clock:\n\tffff main (/usr/bin/node)\n\n`;
  return o.cut ? text.slice(0, Math.floor(text.length * 0.6)) : text;
}

/** One line with `depth` frames, or very long lines with no count, or many short lines. */
export function deepFolded(o: DeepOptions): string {
  const n = o.depth;
  switch (o.variant) {
    case 0:
    case 1: {
      const frames: string[] = [];
      for (let i = 0; i < n; i++) frames.push(o.variant === 1 ? '' : `f${i % 97}`);
      return `${frames.join(';')} 3\nmain;x 1\n`;
    }
    case 2:
      // long lines that never end in a count: no parse may look at them more than a few times
      return `a;b 1\nc;d 2\n${'x'.repeat(200_000)}\n${'y '.repeat(100_000)}z\n`;
    case 3:
      return `${'a;'.repeat(n)}b ${'9'.repeat(400)}\n`;
    case 4:
      return 'a;b 1\n'.repeat(n);
    default:
      return `${'a b '.repeat(n)}\n`;
  }
}
