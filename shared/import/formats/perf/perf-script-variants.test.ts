/**
 * perf script importer beyond the reference corpus: real Node.js runs (fixtures/samples), the
 * frame and header variants perf and its users produce (JIT frames, comms with blanks, no -g,
 * CRLF, cut-off files, deep stacks), format detection and error messages. The comparisons with
 * stackcollapse-perf.pl output are in perf-script.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { collapse } from '../../../model/collapse';
import { checkProfile } from '../../../model/integrity';
import { CATEGORY_NAMES, TIER_NAMES, type Profile } from '../../../model/types';
import { fileSource, fixturePath, readText } from '../../../../test/support/files';
import { ImportError } from '../../errors';
import { importProfile } from '../../import-profile';
import { bytesSource, openSource } from '../../io/source';
import type { ImportOptions } from '../../importer';
import { perfScriptImporter } from './perf-script';
import { foldedImporter } from '../folded/folded';
import { timeColumn } from '../../../model/sample-times';

const flamegraph = (f: string) => fixturePath('corpus/FlameGraph', f);
const generated = (f: string) => fixturePath('corpus/FlameGraph/generated-41fee1f/default', f);
const speedscope = (f: string) => fixturePath('corpus/speedscope/sample/profiles/linux-perf', f);
const flamescope = (f: string) => fixturePath('corpus/flamescope/examples', f);
const sample = (f: string) => fixturePath('samples', f);

function load(path: string, name?: string, options: ImportOptions = {}): Promise<Profile> {
  return importProfile(fileSource(path, name), { options });
}

function fromText(body: string, options: ImportOptions = {}, name = 'x.perf.txt'): Promise<Profile> {
  return importProfile(bytesSource(name, body), { options });
}

/** perf script text from readable lines: frame lines start with a tab, as perf writes them. */
function perfText(...lines: string[]): string {
  return lines.map((l) => `${l}\n`).join('');
}

/** Distinct frames of the profile whose name is `name`, as readable records. */
function framesNamed(p: Profile, name: string) {
  const f = p.frames;
  const out = [];
  for (let i = 0; i < f.length; i++) {
    if (f.name[i] !== name) continue;
    out.push({
      name,
      file: f.file[i],
      line: f.line[i],
      column: f.column[i],
      tier: TIER_NAMES[f.tier[i]!],
      category: CATEGORY_NAMES[f.category[i]!],
      pkg: f.pkg[i],
      label: f.label[i],
    });
  }
  return out;
}

/** Self weight per category, as a share of the total, rounded to a percent. */
function categoryShares(p: Profile): Record<string, number> {
  const by: Record<string, number> = {};
  const t = p.tree;
  for (let i = 1; i < t.length; i++) {
    const c = CATEGORY_NAMES[p.frames.category[t.frame[i]!]!]!;
    by[c] = (by[c] ?? 0) + t.self[i]!;
  }
  for (const k of Object.keys(by)) by[k] = Math.round((100 * by[k]!) / t.total[0]!);
  return by;
}

describe('perf script: real Node.js runs (fixtures/samples)', () => {
  // file, samples, sampling interval in µs (cpu-clock period / 1000)
  const runs: [string, number, number][] = [
    ['baseline/perf.script.txt', 46, 10101.01],
    ['ddtrace/perf.script.txt', 267, 10101.01],
    ['baseline/perf.F999.script.txt.gz', 506, 1001.001],
    ['ddtrace/perf.F999.script.txt.gz', 2322, 1001.001],
  ];
  for (const [f, samples, interval] of runs) {
    it(`${f}: loads whole, sound, timed`, async () => {
      const p = await load(sample(f));
      expect(checkProfile(p)).toEqual([]);
      expect(p.kind).toBe('sampled');
      expect(p.unit).toBe('nanoseconds');
      expect(p.meta.producer).toBe('perf script');
      expect(p.meta.eventType).toBe('cpu-clock:pppH');
      expect(p.meta.warnings).toEqual([]);
      expect(p.samples!.length).toBe(samples);
      expect(p.meta.sampleInterval).toBeCloseTo(interval, 6);
      expect(p.tree.total[0]).toBe(samples * interval * 1000);
      const time = timeColumn(p.samples!);
      expect(time.every((t) => Number.isFinite(t))).toBe(true);
      expect([p.meta.startTime, p.meta.endTime]).toEqual([time[0], time[samples - 1]]);
      // Every JIT function frame carries its V8 tier.
      for (let i = 0; i < p.frames.length; i++) if (p.frames.label[i]!.startsWith('JS:')) expect(p.frames.tier[i]).not.toBe(0);
    });
  }

  it('reads V8 JIT frames into function, script, line, column and tier', async () => {
    const p = await load(sample('baseline/perf.script.txt'));
    expect(framesNamed(p, 'EventEmitter.init')).toEqual([
      {
        name: 'EventEmitter.init',
        file: 'node:events',
        line: 347,
        column: 29,
        tier: 'baseline (Sparkplug)',
        category: 'node core',
        pkg: '',
        label: 'JS:^EventEmitter.init node:events:347:29',
      },
    ]);
    // One function seen at two tiers: two frames, one key (so runs still line up).
    const onSendEnd = framesNamed(p, 'onSendEnd');
    expect(onSendEnd.map((f) => [f.file, f.line, f.tier, f.category, f.pkg]).sort()).toEqual([
      ['/srv/app/node_modules/fastify/lib/reply.js', 599, 'baseline (Sparkplug)', 'dependency', 'fastify'],
      ['/srv/app/node_modules/fastify/lib/reply.js', 599, 'optimized (TurboFan)', 'dependency', 'fastify'],
    ]);
    const keys = new Set<string>();
    for (let i = 0; i < p.frames.length; i++) if (p.frames.name[i] === 'onSendEnd') keys.add(p.frames.key[i]!);
    expect(keys.size).toBe(1);
  });

  it('gives native, V8, GC and kernel frames their categories', async () => {
    const p = await load(sample('ddtrace/perf.F999.script.txt.gz'));
    const category = (name: string) => framesNamed(p, name).map((f) => f.category);
    expect(category('Builtins_InterpreterEntryTrampoline')).toEqual(['V8']);
    expect(category('v8::internal::Scavenger::ScavengePage')).toEqual(['GC']);
    expect(category('cppgc::internal::MarkerBase::StartMarking')).toEqual(['GC']);
    expect(category('node::Start')).toEqual(['native']);
    expect(category('uv_run')).toEqual(['native']);
    expect(category('malloc')).toEqual(['native']);
    expect(category('do_syscall_64')).toEqual(['kernel']);
    expect(category('RegExp:[^\\t\\x20-\\x7e\\x80-\\xff]')).toEqual(['regexp']);
    expect(category('node')).toEqual(['other']); // the process-name root
  });

  it('shows the agent: dd-trace frames on the stack of many samples, none in the baseline', async () => {
    const onStack = (p: Profile, pkg: string) => {
      const { node } = p.samples!;
      let n = 0;
      for (let i = 0; i < node.length; i++) {
        for (let v = node[i]!; v > 0; v = p.tree.parent[v]!) {
          if (p.frames.pkg[p.tree.frame[v]!] === pkg) {
            n++;
            break;
          }
        }
      }
      return Math.round((100 * n) / node.length);
    };
    const baseline = await load(sample('baseline/perf.F999.script.txt.gz'));
    const ddtrace = await load(sample('ddtrace/perf.F999.script.txt.gz'));
    expect(onStack(baseline, 'dd-trace')).toBe(0);
    expect(onStack(ddtrace, 'dd-trace')).toBe(44);
    const shares = categoryShares(ddtrace);
    expect(shares.dependency).toBeGreaterThan(categoryShares(baseline).dependency!);
    expect(shares.V8).toBeGreaterThan(50); // builtins and ICs dominate a hello-world server
  });
});

describe('perf script: frames and headers', () => {
  it('reads each kind of frame into name, file, line, column, tier and category', async () => {
    const p = await fromText(
      perfText(
        'node 1234 [000] 100.000001: 1001001 cpu-clock:pppH: ',
        '\t    7f0000000001 JS:*handler /app/server.js:12:3+0x97 (/tmp/perf-1234.map)',
        '\t    7f0000000002 JS:^get headers node:_http_incoming:109:16+0x1f (/tmp/perf-1234.map)',
        '\t    7f0000000003 JS:+compute /app/node_modules/@scope/pkg/lib/x.js:3:10 (/tmp/perf-1234.map)',
        '\t    7f0000000004 JS:~ /app/server.js:5:18 (/tmp/perf-1234.map)',
        '\t    7f0000000005 LazyCompile:~old /app/x.js:3 (/tmp/perf-1234.map)',
        '\t    7f0000000006 RegExp:^[a-z]+$+0x12 (/tmp/perf-1234.map)',
        '\t    7f0000000007 [unknown] (/tmp/perf-1234.map)',
        '\t         14cfd1c Builtins_InterpreterEntryTrampoline+0xdc (/usr/bin/node)',
        '\t          c494db v8::internal::(anonymous namespace)::Invoke+0x12b (/usr/bin/node)',
        '\t ffffffff821ed6db do_syscall_64+0x23b ([kernel.kallsyms])',
        '\t          3d6b4c vfs_read (/lib/modules/4.1.0-virtual/build/vmlinux)',
        '\t           2724a __libc_start_call_main+0x7a (/usr/lib/x86_64-linux-gnu/libc.so.6)',
        '\t           e5f70 [unknown] (/usr/lib/x86_64-linux-gnu/libc.so.6)',
        '\t               0 [unknown] ([unknown])',
        '',
      ),
    );
    expect(checkProfile(p)).toEqual([]);
    const f = p.frames;
    const rows = [];
    for (let i = 0; i < f.length; i++)
      rows.push([
        f.label[i],
        f.name[i],
        f.file[i],
        f.line[i],
        f.column[i],
        TIER_NAMES[f.tier[i]!],
        CATEGORY_NAMES[f.category[i]!],
        f.pkg[i],
      ]);
    expect(rows).toEqual([
      ['node', 'node', '', 0, 0, '', 'other', ''],
      ['JS:*handler /app/server.js:12:3', 'handler', '/app/server.js', 12, 3, 'optimized (TurboFan)', 'app', ''],
      [
        'JS:^get headers node:_http_incoming:109:16',
        'get headers',
        'node:_http_incoming',
        109,
        16,
        'baseline (Sparkplug)',
        'node core',
        '',
      ],
      [
        'JS:+compute /app/node_modules/@scope/pkg/lib/x.js:3:10',
        'compute',
        '/app/node_modules/@scope/pkg/lib/x.js',
        3,
        10,
        'Maglev',
        'dependency',
        '@scope/pkg',
      ],
      ['JS:~ /app/server.js:5:18', '(anonymous)', '/app/server.js', 5, 18, 'interpreted', 'app', ''],
      ['LazyCompile:~old /app/x.js:3', 'old', '/app/x.js', 3, 0, 'interpreted', 'app', ''],
      // The `^` of a regular expression is not a tier; quotes would go, as in the reference.
      ['RegExp:^[a-z]+$', 'RegExp:^[a-z]+$', '', 0, 0, '', 'regexp', ''],
      ['[perf-1234.map]', '[unknown JIT code]', '', 0, 0, '', 'other', ''],
      ['Builtins_InterpreterEntryTrampoline', 'Builtins_InterpreterEntryTrampoline', '/usr/bin/node', 0, 0, '', 'V8', ''],
      ['v8::internal::(anonymous namespace)::Invoke', 'v8::internal::(anonymous namespace)::Invoke', '/usr/bin/node', 0, 0, '', 'V8', ''],
      ['do_syscall_64', 'do_syscall_64', '[kernel.kallsyms]', 0, 0, '', 'kernel', ''],
      ['vfs_read', 'vfs_read', '/lib/modules/4.1.0-virtual/build/vmlinux', 0, 0, '', 'kernel', ''],
      ['__libc_start_call_main', '__libc_start_call_main', '/usr/lib/x86_64-linux-gnu/libc.so.6', 0, 0, '', 'native', ''],
      ['[libc.so.6]', '[libc.so.6]', '/usr/lib/x86_64-linux-gnu/libc.so.6', 0, 0, '', 'native', ''],
      ['[unknown]', '[unknown]', '', 0, 0, '', 'other', ''],
    ]);
    // Root first in folded output, as stackcollapse-perf.pl prints it.
    expect(collapse(p)[0]!.startsWith('node;[unknown];[libc.so.6];__libc_start_call_main;vfs_read;')).toBe(true);
  });

  it('takes comm names with spaces, pid/tid and cpu columns, and names processes and threads', async () => {
    const p = await fromText(
      perfText(
        'V8 WorkerThread 24636/25607 [000] 94564.109216: 100 cycles: ',
        '\t  7f0000000001 func_a (/opt/app/bin)',
        '',
        'node 24636/24636 [001] 94564.109300: 250 cycles: ',
        '\t  7f0000000002 func_b (/opt/app/bin)',
        '',
      ),
    );
    expect(collapse(p)).toEqual(['V8_WorkerThread;func_a 100', 'node;func_b 250']);
    expect(framesNamed(p, 'V8 WorkerThread').map((f) => f.label)).toEqual(['V8_WorkerThread']);
    expect(p.meta.processNames).toEqual({ '24636': 'node' });
    expect(p.meta.threadNames).toEqual({ '24636:25607': 'V8 WorkerThread', '24636:24636': 'node' });
    expect(p.unit).toBe('events');
    expect([p.meta.startTime, p.meta.endTime]).toEqual([94564109216, 94564109300]);
  });

  it('leaves times unknown (NaN) when the file has no timestamps', async () => {
    const p = await load(flamegraph('test/perf-js-stacks-01.txt'));
    expect([...timeColumn(p.samples!)]).toEqual([NaN, NaN]);
    expect(p.meta.startTime).toBeUndefined();
  });

  it('reads `perf script` without -g: one line per sample, no blank lines', async () => {
    const p = await fromText(
      perfText(
        'node 1234 [000] 100.000001: 1001001 cpu-clock:pppH:      7f0000000001 JS:*handler /app/server.js:12:3+0x97 (/tmp/perf-1234.map)',
        'node 1234 [000] 100.001002: 1001001 cpu-clock:pppH:      7f0000000001 JS:*handler /app/server.js:12:3+0x97 (/tmp/perf-1234.map)',
        'node 1234 [000] 100.002003: 1001001 cpu-clock:pppH:           2724a malloc+0x7a (/usr/lib/x86_64-linux-gnu/libc.so.6)',
      ),
      {},
      '',
    );
    expect(collapse(p)).toEqual(['node;JS:*handler /app/server.js:12:3 2002002', 'node;malloc 1001001']);
  });

  it('closes a sample at the next header even without a blank line between them', async () => {
    const p = await fromText(perfText('ab 1 1.0: cpu-clock:', '\t 1 f (/x)', 'ab 1 2.0: cpu-clock:', '\t 2 g (/x)'));
    expect(collapse(p)).toEqual(['ab;f 1', 'ab;g 1']);
  });

  it('leaves out frames whose symbol starts with "(", as the reference does, every time they come', async () => {
    const sample = (t: string) => [
      `prog 7 ${t}: 1 cpu-clock:`,
      '\t 1 work (/bin/prog)',
      '\t 2 (anonymous namespace)::init (/bin/prog)',
      '\t 3 main (/bin/prog)',
      '',
    ];
    const p = await fromText(perfText(...sample('1.0'), ...sample('2.0'), ...sample('3.0')));
    expect(collapse(p)).toEqual(['prog;main;work 3']);
    expect(framesNamed(p, '(anonymous namespace)::init')).toEqual([]);
  });

  it('reads one-character process names, padded (as the reference) or not (where it gives up)', async () => {
    const p = await fromText(perfText('a   12 1.0: cpu-clock:', '\t 1 f (/x)', '', 'b 13 2.0: cpu-clock:', '\t 2 g (/x)', ''));
    // stackcollapse-perf.pl takes "a " as the name (names have two characters or more) and skips "b 13 …".
    expect(collapse(p)).toEqual(['a_;f 1', 'b;g 1']);
    expect(p.meta.threadNames).toBeUndefined();
    expect(framesNamed(p, 'a').map((f) => f.label)).toEqual(['a_']);
  });

  it('keeps the last sample whether or not a blank line follows it', async () => {
    const body = perfText('prog 7 [000] 1.000000: 10 cpu-clock:', '\t 1 work (/bin/prog)', '\t 2 main (/bin/prog)');
    const withBlank = await fromText(`${body}\n`);
    const without = await fromText(body.trimEnd());
    expect(collapse(without)).toEqual(['prog;main;work 10']);
    expect(collapse(withBlank)).toEqual(collapse(without));
  });

  it('reads CRLF files as LF files', async () => {
    const lf = readText(speedscope('system-wide.linux-perf.txt'));
    const crlf = await fromText(lf.replace(/\n/g, '\r\n'), {}, '');
    expect(checkProfile(crlf)).toEqual([]);
    expect(collapse(crlf)).toEqual(collapse(await fromText(lf)));
    expect(crlf.meta.warnings).toEqual([]);
  });

  it('reads a file cut off in the middle of a frame line', async () => {
    const whole = readText(sample('baseline/perf.script.txt'));
    // Cut inside the symbol of the first frame line past the middle: "\t    7f4d74061181 JS:^Event".
    const frameLine = /\n\t +[0-9a-f]+ \S{5}/g;
    frameLine.lastIndex = whole.length / 2;
    const m = frameLine.exec(whole)!;
    const cut = whole.slice(0, m.index + m[0].length);
    const headers = cut.split('\n').filter((l) => /^node /.test(l)).length;
    const p = await fromText(cut);
    expect(checkProfile(p)).toEqual([]);
    expect(p.samples!.length).toBe(headers);
    expect(p.meta.warnings).toHaveLength(1);
    expect(p.meta.warnings[0]).toBe(
      `skipped 1 line(s) that are neither a sample header nor a frame, first at line ${cut.split('\n').length}: "${cut.slice(cut.lastIndexOf('\n') + 1)}"`,
    );
    expect(cut.slice(cut.lastIndexOf('\n') + 1)).toMatch(/^\t +[0-9a-f]+ \S{5}$/);
  });

  it('survives a 50,000-frame stack', async () => {
    const frames = Array.from({ length: 50_000 }, (_, i) => `\t ${(i + 1).toString(16)} f${i % 7} (/bin/deep)`);
    const p = await fromText(perfText('deep 1 1.0: 1 cpu-clock:', ...frames, ''));
    expect(checkProfile(p)).toEqual([]);
    expect(p.tree.length).toBe(50_002);
    expect(Math.max(...p.tree.depth)).toBe(50_001);
    expect(collapse(p)).toHaveLength(1);
  });
});

describe('perf script: detection and errors', () => {
  const head = async (path: string) => (await openSource(fileSource(path))).head;

  it('detects every perf script input, with and without its file name', async () => {
    const inputs = [
      ...[
        'perf-cycles-instructions-01',
        'perf-dd-stacks-01',
        'perf-funcab-cmd-01',
        'perf-funcab-pid-01',
        'perf-iperf-stacks-pidtid-01',
        'perf-java-faults-01',
        'perf-java-stacks-01',
        'perf-java-stacks-02',
        'perf-js-stacks-01',
        'perf-mirageos-stacks-01',
        'perf-numa-stacks-01',
        'perf-rust-Yamakaky-dcpu',
        'perf-vertx-stacks-01',
      ].map((f) => flamegraph(`test/${f}.txt`)),
      flamegraph('example-perf-stacks.txt.gz'),
      speedscope('simple.linux-perf.txt'),
      speedscope('simple-with-pid.linux-perf.txt'),
      flamescope('perf.test01'),
      sample('ddtrace/perf.F999.script.txt.gz'),
    ];
    for (const path of inputs) {
      const h = await head(path);
      expect([path, perfScriptImporter.sniff(h, '')]).toEqual([path, true]);
      expect([path, perfScriptImporter.sniff(h, path.split('/').pop()!)]).toEqual([path, true]);
    }
    // A header and one tab-indented frame are enough.
    expect(perfScriptImporter.sniff('java 25607 4794564.109216: 1 cycles:\n\t  7f1e2215d058 write (/lib/libc.so.6)\n', '')).toBe(true);
  });

  it('leaves folded stacks, JSON and DTrace output alone', async () => {
    const others = [
      generated('perf-vertx-stacks-01-collapsed-default.txt'),
      generated('perf-js-stacks-01-collapsed-default.txt'),
      flamegraph('example-dtrace-stacks.txt'),
      speedscope('forks.linux-perf.txt.expected.json'),
      sample('baseline/CPU.20261121.233005.6118.0.001.cpuprofile'),
    ];
    for (const path of others) {
      const h = await head(path);
      expect([path, perfScriptImporter.sniff(h, '')]).toEqual([path, false]);
      expect([path, perfScriptImporter.sniff(h, 'perf.txt')]).toEqual([path, false]);
    }
    expect(foldedImporter.sniff(await head(flamegraph('test/perf-dd-stacks-01.txt')), '')).toBe(false);
  });

  it('says what it expected when the file is not perf script after all', async () => {
    const dtrace = await openSource(fileSource(flamegraph('example-dtrace-stacks.txt')));
    const error = await perfScriptImporter
      .parse({ file: 'example-dtrace-stacks.txt', source: dtrace, options: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).line).toBe(1);
    expect((error as ImportError).message).toContain('no perf script samples found: expected sample headers like');
  });

  it('explains perf report output and binary perf.data', async () => {
    const report =
      "# ========\n# captured on: Thu Jul  9 17:14:37 2015\n# perf version : 3.13.11\n# ========\n#\n# Samples: 1K of event 'cpu-clock'\n# Overhead  Command  Shared Object  Symbol\n#\n    20.00%  node  node  [.] Builtins_LoadIC\n";
    await expect(fromText(report, {}, 'report.txt')).rejects.toThrow('this is `perf report` output');
    await expect(importProfile(bytesSource('perf.data', 'PERFILE2\u0000\u0000\u0000h\u0000'))).rejects.toThrow('perf script -i perf.data');
  });

  it('rejects empty files', async () => {
    await expect(fromText('')).rejects.toThrow('the file is empty');
    const empty = await openSource(bytesSource('empty.perf', ''));
    await expect(perfScriptImporter.parse({ file: 'empty.perf', source: empty, options: {} })).rejects.toThrow(
      'empty.perf: the file is empty',
    );
  });
});
