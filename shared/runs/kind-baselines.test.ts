import { describe, expect, it } from 'vitest';
import { type KindRun, comparisons } from './kind-baselines';

const run = (id: string, path: string, format: string | undefined): KindRun => ({ id, path, format });
const pairs = (runs: KindRun[], baselineId: string | undefined) => {
  const c = comparisons(runs, baselineId);
  return { with: Object.fromEntries(c.baselineOf), kind: [...c.kindBaselines].sort() };
};

describe('which run each run is compared with', () => {
  it('compares each format with the run of that format in the baseline folder', () => {
    const runs = [
      run('bc', '/s/baseline/CPU.20261121.233005.6118.0.001.cpuprofile', 'cpuprofile'),
      run('dc', '/s/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile', 'cpuprofile'),
      run('bp', '/s/baseline/perf.script.txt', 'perf-script'),
      run('dp', '/s/ddtrace/perf.script.txt', 'perf-script'),
      run('bt', '/s/baseline/node_trace.1.log.gz', 'trace-events'),
      run('dt', '/s/ddtrace/node_trace.1.log.gz', 'trace-events'),
    ];
    expect(pairs(runs, 'bc')).toEqual({ with: { dc: 'bc', dp: 'bp', dt: 'bt' }, kind: ['bp', 'bt'] });
    // another baseline: the same, from its folder
    expect(pairs(runs, 'dp')).toEqual({ with: { bc: 'dc', bp: 'dp', bt: 'dt' }, kind: ['dc', 'dt'] });
  });

  it('compares with the baseline where its folder has no run of that format, or several, or no folder is known', () => {
    const lone = [run('b', '/s/baseline/perf.script.txt', 'perf-script'), run('t', '/s/ddtrace/node_trace.1.log.gz', 'trace-events')];
    expect(pairs(lone, 'b')).toEqual({ with: { t: 'b' }, kind: [] });
    const several = [
      run('b', '/s/baseline/CPU.1.cpuprofile', 'cpuprofile'),
      run('p1', '/s/baseline/perf.F99.script.txt', 'perf-script'),
      run('p2', '/s/baseline/perf.F999.script.txt', 'perf-script'),
      run('d', '/s/ddtrace/perf.script.txt', 'perf-script'),
    ];
    expect(pairs(several, 'b')).toEqual({ with: { p1: 'b', p2: 'b', d: 'b' }, kind: [] });
    // dropped files: their folders are not known
    const dropped = [
      run('b', 'CPU.1.cpuprofile', 'cpuprofile'),
      run('p', 'perf.script.txt', 'perf-script'),
      run('q', 'other.txt', 'perf-script'),
    ];
    expect(pairs(dropped, 'b')).toEqual({ with: { p: 'b', q: 'b' }, kind: [] });
  });

  it('compares runs of the baseline format with the baseline, wherever they are, and a run still loading with the baseline', () => {
    const runs = [
      run('b', '/s/baseline/a.cpuprofile', 'cpuprofile'),
      run('b2', '/s/baseline/b.cpuprofile', 'cpuprofile'),
      run('d', '/s/ddtrace/a.cpuprofile', 'cpuprofile'),
      run('l', '/s/baseline/perf.script.txt', undefined),
    ];
    expect(pairs(runs, 'b')).toEqual({ with: { b2: 'b', d: 'b', l: 'b' }, kind: [] });
  });

  it('compares nothing without a baseline', () => {
    expect(pairs([run('a', '/x/a.cpuprofile', 'cpuprofile')], undefined)).toEqual({ with: {}, kind: [] });
  });

  it('reads Windows paths and folders relative to a drop', () => {
    const runs = [
      run('b', 'C:\\runs\\baseline\\CPU.1.cpuprofile', 'cpuprofile'),
      run('bp', 'C:\\runs\\baseline\\perf.script.txt', 'perf-script'),
      run('dp', '/ddtrace/perf.script.txt', 'perf-script'),
    ];
    expect(pairs(runs, 'b')).toEqual({ with: { dp: 'bp' }, kind: ['bp'] });
  });
});
