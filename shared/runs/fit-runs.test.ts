import { describe, expect, it } from 'vitest';
import { fitRuns } from './fit-runs';

/** Runs as a folder of captures opens: `folder/name` for each name. */
const runsOf = (folder: string, names: string[]) => names.map((name) => ({ path: `${folder}/${name}`, name }));
const paths = (runs: { path: string }[]) => runs.map((r) => r.path);

const BASELINE = runsOf('/s/baseline', [
  'CPU.20261121.233005.6118.0.001.cpuprofile',
  'Heap.20261121.233010.6213.0.001.heapprofile',
  'node_trace.1.log.gz',
  'perf.F999.script.txt',
  'perf.script.txt',
]);
const DDTRACE = runsOf('/s/ddtrace', [
  'CPU.20261121.233052.6494.0.001.cpuprofile',
  'Heap.20261121.233100.6609.0.001.heapprofile',
  'node_trace.1.log.gz',
  'perf.F999.script.txt',
  'perf.script.txt',
]);

describe('which runs open when more are offered than fit', () => {
  it('opens everything that fits, in order', () => {
    const runs = [...BASELINE.slice(0, 2), ...DDTRACE.slice(0, 2)];
    expect(fitRuns(runs, 6)).toEqual(runs);
  });

  it('opens the same captures of two run folders: CPU profiles, perf, then traces', () => {
    expect(paths(fitRuns([...BASELINE, ...DDTRACE], 6))).toEqual([
      '/s/baseline/CPU.20261121.233005.6118.0.001.cpuprofile',
      '/s/baseline/node_trace.1.log.gz',
      '/s/baseline/perf.F999.script.txt',
      '/s/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile',
      '/s/ddtrace/node_trace.1.log.gz',
      '/s/ddtrace/perf.F999.script.txt',
    ]);
    // with less room, the first kinds
    expect(paths(fitRuns([...BASELINE, ...DDTRACE], 4))).toEqual([
      '/s/baseline/CPU.20261121.233005.6118.0.001.cpuprofile',
      '/s/baseline/perf.F999.script.txt',
      '/s/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile',
      '/s/ddtrace/perf.F999.script.txt',
    ]);
  });

  it('shares the room among three folders, and fills what is left in order', () => {
    const otel = runsOf('/s/otel', ['CPU.20261121.240000.7000.0.001.cpuprofile', 'perf.script.txt']);
    expect(paths(fitRuns([...BASELINE, ...DDTRACE, ...otel], 6))).toEqual([
      '/s/baseline/CPU.20261121.233005.6118.0.001.cpuprofile',
      '/s/baseline/perf.script.txt',
      '/s/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile',
      '/s/ddtrace/perf.script.txt',
      '/s/otel/CPU.20261121.240000.7000.0.001.cpuprofile',
      '/s/otel/perf.script.txt',
    ]);
    // nothing in common: the first in order
    const a = runsOf('/a', ['x.cpuprofile', 'y.cpuprofile', 'z.cpuprofile', 'w.cpuprofile']);
    const b = runsOf('/b', ['trace.json', 'perf.data.txt', 'out.folded']);
    expect(paths(fitRuns([...a, ...b], 6))).toEqual([...paths(a), '/b/trace.json', '/b/perf.data.txt']);
  });

  it('keeps the first runs of one folder in order', () => {
    expect(fitRuns([...BASELINE, ...BASELINE.map((r) => ({ ...r, path: `${r.path}.copy` }))], 3)).toEqual(BASELINE.slice(0, 3));
  });
});
