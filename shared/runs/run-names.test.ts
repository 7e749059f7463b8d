import { describe, expect, it } from 'vitest';
import { baselineIndex, isToolName, pathSegments, pathsToKeep, runNames } from './run-names';

const CPU_BASE = 'CPU.20261121.233005.6118.0.001.cpuprofile';
const CPU_DD = 'CPU.20261121.233052.6494.0.001.cpuprofile';

describe('pathSegments and isToolName', () => {
  it('splits Linux, macOS and Windows paths alike', () => {
    expect(pathSegments('/srv/runs/otel/CPU.1.cpuprofile')).toEqual(['srv', 'runs', 'otel', 'CPU.1.cpuprofile']);
    expect(pathSegments('/Users/ana/Desktop/runs/otel/perf.F999.script.txt')).toEqual([
      'Users',
      'ana',
      'Desktop',
      'runs',
      'otel',
      'perf.F999.script.txt',
    ]);
    expect(pathSegments('C:\\Users\\ana\\runs\\otel\\node_trace.1.log.gz')).toEqual([
      'C:',
      'Users',
      'ana',
      'runs',
      'otel',
      'node_trace.1.log.gz',
    ]);
    expect(pathSegments('./runs//otel/')).toEqual(['runs', 'otel']);
  });

  it('knows the names profilers give every run', () => {
    for (const n of [
      CPU_BASE,
      'Heap.20261121.233010.6213.0.001.heapprofile',
      'perf.F999.script.txt',
      'perf.script.txt.gz',
      'node_trace.1.log.gz',
      '12345.0x',
      '0x',
      'flamegraph.html',
      'isolate-0x33817a80-6265-6265-v8.log.json.gz',
      'ticks.json',
    ])
      expect(isToolName(n), n).toBe(true);
    for (const n of ['baseline.cpuprofile', 'otel-run.folded', 'server.perf.txt.bak']) expect(isToolName(n), n).toBe(false);
  });
});

describe('runNames', () => {
  it('names runs of tool-named files by the folders that differ (Linux)', () => {
    expect(runNames([`/home/ana/runs/otel/${CPU_DD}`, `/home/ana/runs/baseline/${CPU_BASE}`])).toEqual(['otel', 'baseline']);
  });

  it('does the same on macOS and Windows paths', () => {
    expect(runNames(['/Users/ana/runs/ddtrace/perf.F999.script.txt', '/Users/ana/runs/baseline/perf.F999.script.txt'])).toEqual([
      'ddtrace',
      'baseline',
    ]);
    expect(
      runNames([
        'C:\\runs\\baseline\\node_trace.1.log.gz',
        'C:\\runs\\newrelic\\node_trace.1.log.gz',
        'C:\\runs\\elastic\\node_trace.1.log.gz',
      ]),
    ).toEqual(['baseline', 'newrelic', 'elastic']);
  });

  it('names 0x folders by the folder above them', () => {
    expect(runNames(['/srv/runs/baseline/6265.0x', '/srv/runs/otel/7001.0x'])).toEqual(['baseline', 'otel']);
    expect(runNames(['/srv/runs/baseline/0x', '/srv/runs/otel/0x'])).toEqual(['baseline', 'otel']);
  });

  it('leaves out folders the runs share below the one that differs', () => {
    expect(runNames(['/r/baseline/cpu/CPU.1.2.3.0.001.cpuprofile', '/r/otel/cpu/CPU.4.5.6.0.001.cpuprofile'])).toEqual([
      'baseline',
      'otel',
    ]);
  });

  it('takes the closest differing folder when a date folder differs too', () => {
    expect(runNames([`/runs/2026-11-20/baseline/${CPU_BASE}`, `/runs/2026-11-21/otel/${CPU_DD}`])).toEqual(['baseline', 'otel']);
    expect(runNames([`/a/run/otel/${CPU_BASE}`, `/b/run/otel/${CPU_DD}`])).toEqual(['a', 'b']);
  });

  it('uses the file names when the user named the files', () => {
    expect(runNames(['/x/a/baseline.cpuprofile', '/x/b/otel.cpuprofile'])).toEqual(['baseline.cpuprofile', 'otel.cpuprofile']);
    expect(runNames(['/x/profile-baseline.cpuprofile', '/x/profile-otel.cpuprofile'])).toEqual([
      'profile-baseline.cpuprofile',
      'profile-otel.cpuprofile',
    ]);
  });

  it('uses the file names of tool-named files in one folder (or dropped without a path)', () => {
    expect(runNames([CPU_BASE, CPU_DD])).toEqual([CPU_BASE, CPU_DD]);
    expect(runNames(['/r/perf.script.txt', '/r/perf.F999.script.txt'])).toEqual(['perf.script.txt', 'perf.F999.script.txt']);
  });

  it('numbers names that still collide', () => {
    expect(runNames(['/r/otel/' + CPU_DD, '/r/otel/' + CPU_DD])).toEqual([CPU_DD, `${CPU_DD} (2)`]);
  });

  it('tells runs from one folder apart by their files', () => {
    expect(
      runNames([`/r/ddtrace/${CPU_DD}`, `/r/baseline/${CPU_BASE}`, '/r/ddtrace/node_trace.1.log.gz', '/r/baseline/node_trace.1.log.gz']),
    ).toEqual([`ddtrace/${CPU_DD}`, `baseline/${CPU_BASE}`, 'ddtrace/node_trace.1.log.gz', 'baseline/node_trace.1.log.gz']);
  });

  it('keeps names short when two runs share a folder', () => {
    const paths = [`/runs/2026-11-20/baseline/${CPU_BASE}`, `/runs/2026-11-21/otel/${CPU_DD}`, '/runs/2026-11-21/otel/node_trace.1.log.gz'];
    expect(runNames(paths)).toEqual(['baseline', `otel/${CPU_DD}`, 'otel/node_trace.1.log.gz']);
  });

  it('names files dropped inside folders by their folders (entry paths of a drop)', () => {
    expect(runNames([`/ddtrace/${CPU_DD}`, `/baseline/${CPU_BASE}`])).toEqual(['ddtrace', 'baseline']);
  });

  it('names a run whose folder all others share by its file', () => {
    expect(runNames(['/r/server.cpuprofile', `/r/otel/${CPU_DD}`])).toEqual(['server.cpuprofile', 'otel']);
  });

  it('names a run alone by its file, or by its folder when a profiler named the file', () => {
    expect(runNames([`/home/ana/runs/otel/${CPU_DD}`])).toEqual(['otel']);
    expect(runNames(['/home/ana/runs/otel/6494.0x'])).toEqual(['otel']);
    expect(runNames(['C:\\0x'])).toEqual(['0x']);
    expect(runNames(['/home/ana/before-fix.cpuprofile'])).toEqual(['before-fix.cpuprofile']);
    expect(runNames([CPU_DD])).toEqual([CPU_DD]);
    expect(runNames([])).toEqual([]);
  });
});

describe('baselineIndex', () => {
  it('finds the baseline folder whatever the order', () => {
    expect(baselineIndex([`/runs/otel/${CPU_DD}`, `/runs/baseline/${CPU_BASE}`])).toBe(1);
    expect(baselineIndex([`/runs/baseline/${CPU_BASE}`, `/runs/otel/${CPU_DD}`])).toBe(0);
    expect(baselineIndex(['C:\\runs\\ddtrace\\0x', 'C:\\runs\\control\\0x'])).toBe(1);
  });

  it('knows the usual words, as whole words only', () => {
    for (const word of ['base', 'before', 'main', 'control', 'reference', 'no-agent', 'noAgent', 'Baseline'])
      expect(baselineIndex([`/r/otel/${CPU_DD}`, `/r/${word}/${CPU_BASE}`]), word).toBe(1);
    for (const word of ['database', 'basement', 'mainline', 'beforehand', 'controller'])
      expect(baselineIndex([`/r/otel/${CPU_DD}`, `/r/${word}/${CPU_BASE}`]), word).toBeUndefined();
  });

  it('reads file names too', () => {
    expect(baselineIndex(['/r/server-otel.cpuprofile', '/r/server-baseline.cpuprofile'])).toBe(1);
    expect(baselineIndex(['ddtrace.cpuprofile', 'before.cpuprofile'])).toBe(1);
  });

  it('ignores the part of the paths every run shares', () => {
    expect(baselineIndex([`/home/ana/main/otel/${CPU_DD}`, `/home/ana/main/newrelic/${CPU_BASE}`])).toBeUndefined();
    expect(baselineIndex([`/r/otel/main/${CPU_DD}`, `/r/ddtrace/main/${CPU_BASE}`])).toBeUndefined();
    expect(baselineIndex(['/r/otel/main.cpuprofile', '/r/ddtrace/main.cpuprofile'])).toBeUndefined();
    expect(baselineIndex(['/r/otel/main.cpuprofile', '/r/baseline/main.cpuprofile'])).toBe(1);
  });

  it('prefers the surer word', () => {
    expect(baselineIndex(['/r/main/x.cpuprofile', '/r/baseline/x.cpuprofile'])).toBe(1);
    expect(baselineIndex([])).toBeUndefined();
  });
});

describe('pathsToKeep', () => {
  it('leaves out the folders all runs share, keeping what names them', () => {
    const paths = [`/home/ana/runs/otel/${CPU_DD}`, `/home/ana/runs/baseline/${CPU_BASE}`];
    expect(pathsToKeep(paths)).toEqual([`otel/${CPU_DD}`, `baseline/${CPU_BASE}`]);
    expect(runNames(pathsToKeep(paths))).toEqual(runNames(paths));
    expect(pathsToKeep(['C:\\runs\\a\\0x', 'C:\\runs\\b\\0x'])).toEqual(['a/0x', 'b/0x']);
  });

  it('keeps a lone run its folder, and a run in the shared folder its file', () => {
    expect(pathsToKeep([`/home/ana/runs/otel/${CPU_DD}`])).toEqual([`otel/${CPU_DD}`]);
    const mixed = ['/r/server.cpuprofile', `/r/otel/${CPU_DD}`];
    expect(pathsToKeep(mixed)).toEqual(['server.cpuprofile', `otel/${CPU_DD}`]);
    expect(runNames(pathsToKeep(mixed))).toEqual(runNames(mixed));
    expect(pathsToKeep(['a.cpuprofile', 'b.cpuprofile'])).toEqual(['a.cpuprofile', 'b.cpuprofile']);
  });
});
