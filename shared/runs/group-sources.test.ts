import { describe, expect, it } from 'vitest';
import { cpuProfIds, folderAsRuns, groupSources, repeatsGroup } from './group-sources';

// What 0x 6.0.0 writes into `<pid>.0x/` (fixtures/samples/baseline/0x).
const ZEROEX = [
  'flamegraph.html',
  'isolate-0x33817a80-6265-6265-v8.log',
  'isolate-0x33817a80-6265-6265-v8.log.json',
  'meta.json',
  'ticks.json',
];

const summary = (groups: ReturnType<typeof groupSources>) =>
  groups.map((g) =>
    g.kind === 'single'
      ? g.item.name
      : g.kind === 'folder'
        ? `${g.name} @ ${g.path}: ${g.items.map((i) => i.name).join(', ')}`
        : `threads: ${g.items.map((i) => i.path ?? i.name).join(', ')}`,
  );

describe('groupSources', () => {
  it('makes the files of a dropped 0x folder one run named as 0x names the folder', () => {
    const groups = groupSources(ZEROEX.slice(0, 3).map((name) => ({ name })));
    expect(summary(groups)).toEqual([
      '6265.0x @ 6265.0x: flamegraph.html, isolate-0x33817a80-6265-6265-v8.log, isolate-0x33817a80-6265-6265-v8.log.json',
    ]);
  });

  it('groups chosen files by their folder and keeps the order the runs came in', () => {
    const items = [
      { name: 'CPU.1.2.3.0.001.cpuprofile', path: '/r/otel/CPU.1.2.3.0.001.cpuprofile' },
      ...ZEROEX.map((name) => ({ name, path: `/r/baseline/6265.0x/${name}` })),
      ...['flamegraph.html', 'ticks.json.gz'].map((name) => ({ name, path: `C:\\r\\ddtrace\\0x\\${name}` })),
    ];
    expect(summary(groupSources(items))).toEqual([
      'CPU.1.2.3.0.001.cpuprofile',
      `6265.0x @ /r/baseline/6265.0x: ${ZEROEX.join(', ')}`,
      '0x @ C:\\r\\ddtrace\\0x: flamegraph.html, ticks.json.gz',
    ]);
  });

  it('groups files dropped inside folders by their entry paths', () => {
    const items = ['meta.json', 'ticks.json'].flatMap((name) => [
      { name, path: `/baseline/0x/${name}` },
      { name, path: `/otel/0x/${name}` },
    ]);
    expect(summary(groupSources(items))).toEqual(['0x @ /baseline/0x: meta.json, ticks.json', '0x @ /otel/0x: meta.json, ticks.json']);
  });

  it('leaves a lone 0x file, and files 0x would not write together, as runs of their own', () => {
    expect(summary(groupSources([{ name: 'ticks.json' }, { name: 'a.cpuprofile' }]))).toEqual(['ticks.json', 'a.cpuprofile']);
    // meta.json with a trace file is no 0x output
    expect(summary(groupSources([{ name: 'meta.json' }, { name: 'node_trace.1.log' }]))).toEqual(['meta.json', 'node_trace.1.log']);
    // the same 0x files from two folders are two runs
    expect(
      summary(
        groupSources([
          { name: 'ticks.json', path: '/a/ticks.json' },
          { name: 'flamegraph.html', path: '/b/flamegraph.html' },
        ]),
      ),
    ).toEqual(['ticks.json', 'flamegraph.html']);
  });
});

describe('folderAsRuns', () => {
  it('keeps a 0x output folder one run', () => {
    expect(folderAsRuns(ZEROEX)).toBe('folder');
  });

  it('opens the profiles of any other folder as runs of their own', () => {
    // a run folder as kept for the samples (fixtures/samples/baseline), and a notes file beside them
    const names = ['CPU.20261121.233005.6118.0.001.cpuprofile', 'node_trace.1.log.gz', 'perf.F999.script.txt.gz', 'notes.md', 'README'];
    expect(folderAsRuns(names)).toEqual(['CPU.20261121.233005.6118.0.001.cpuprofile', 'node_trace.1.log.gz', 'perf.F999.script.txt.gz']);
    expect(folderAsRuns(['notes.md'])).toEqual([]);
  });
});

describe('groupSources: the per-thread files of a Node.js process', () => {
  // What `node --cpu-prof` (Node 20) wrote for a program with one worker_threads worker.
  const MAIN = 'CPU.20261125.121703.1215.0.001.cpuprofile';
  const WORKER = 'CPU.20261125.121704.1215.1.002.cpuprofile';

  it('makes the files of one process one run, the main thread first', () => {
    const items = [WORKER, 'other.cpuprofile', MAIN].map((name) => ({ name, path: `/r/otel/${name}` }));
    expect(summary(groupSources(items))).toEqual([`threads: /r/otel/${MAIN}, /r/otel/${WORKER}`, 'other.cpuprofile']);
    expect(cpuProfIds(WORKER)).toEqual({ pid: '1215', tid: '1' });
  });

  it('keeps apart processes, folders and a single file', () => {
    const items = [
      { name: MAIN, path: `/r/otel/${MAIN}` },
      { name: WORKER, path: `/r/baseline/${WORKER}` },
      { name: 'CPU.20261125.121703.1216.1.001.cpuprofile', path: '/r/otel/CPU.20261125.121703.1216.1.001.cpuprofile' },
    ];
    expect(groupSources(items).map((g) => g.kind)).toEqual(['single', 'single', 'single']);
  });
});

describe('repeatsGroup: a folder of repeated runs of one variant', () => {
  const at = (names: string[]) => names.map((name) => ({ name, path: `/r/agent/${name}` }));

  it('makes two or more profiles of one kind, of different processes, one variant, in name order', () => {
    const names = ['CPU.20261125.121703.1302.0.001.cpuprofile', 'CPU.20261125.121650.1215.0.001.cpuprofile'];
    const g = repeatsGroup('agent', '/r/agent', at(names));
    expect(g && [g.kind, g.name, g.path, g.items.map((i) => i.name)]).toEqual(['repeats', 'agent', '/r/agent', [names[1], names[0]]]);
    expect(repeatsGroup('f', '/f', at(['1.folded', '2.folded', '3.folded']))?.items).toHaveLength(3);
    expect(repeatsGroup('p', '/p', at(['a.script.txt.gz', 'b.script.txt']))?.kind).toBe('repeats');
  });

  it('leaves alone one file, files of several kinds, and the per-thread files of one process', () => {
    expect(repeatsGroup('a', '/a', at(['CPU.20261125.121703.1302.0.001.cpuprofile']))).toBeUndefined();
    expect(repeatsGroup('a', '/a', at(['a.cpuprofile', 'b.folded']))).toBeUndefined();
    const threads = ['CPU.20261125.121703.1215.0.001.cpuprofile', 'CPU.20261125.121704.1215.1.002.cpuprofile'];
    expect(repeatsGroup('a', '/a', at(threads))).toBeUndefined();
  });
});
