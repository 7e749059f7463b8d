import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixturePath, readText } from '../../test/support/files';
import { CliError } from './errors';
import { HEATMAP_HELP, heatmapCommand } from './heatmap';
import { type Captured, captureFailure } from '../../test/support/cli-output';

/** Runs the command with stdout captured; a thrown error is returned, as `main` would print it. */
function run(...args: string[]): Promise<Captured> {
  return captureFailure((out) => heatmapCommand.run(args, out));
}

afterEach(() => vi.restoreAllMocks());

const FS = fixturePath('corpus/flamescope/examples');

describe('flamelens heatmap', () => {
  it("--json prints FlameScope's heatmap of its example", async () => {
    const r = await run(`${FS}/perf.test01`, '--json');
    expect(r.error).toBeUndefined();
    expect(r.code).toBe(0);
    const fs = JSON.parse(readText(`${FS}/perf.test01.flamescope-heatmap.json`)) as {
      rows: number[];
      columns: number[];
      values: number[][];
    };
    const got = JSON.parse(r.out) as Record<string, unknown>;
    expect(Object.keys(got)).toEqual(['rows', 'columns', 'start', 'values']);
    expect(got).toEqual({ rows: fs.rows.length, columns: fs.columns.length, start: 5076, values: fs.values });
    expect(r.out.endsWith('}\n')).toBe(true);
  });

  it('--include-idle counts the swapper samples, --rows changes the slices', async () => {
    const all = JSON.parse((await run(`${FS}/perf.test01`, '--json', '--include-idle')).out) as { values: number[][] };
    expect(all.values.flat().reduce((a, b) => a + b, 0)).toBe(9);
    const ten = JSON.parse((await run(`${FS}/perf.test01`, '--json', '--rows', '10')).out) as { rows: number; values: number[][] };
    expect(ten.rows).toBe(10);
    expect(ten.values.every((c) => c.length === 10)).toBe(true);
    // 5076.1 s: second 0, slice 1 of 10 → row 8
    expect(ten.values[0]![8]).toBe(1);
  });

  it('renders a shaded grid with ms and second labels', async () => {
    const r = await run(`${FS}/perf.test01`);
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toBe(
      "perf.test01: 5 sample(s) over 42 s from 5076 s on the profile's clock; 4 idle sample(s) left out (--include-idle counts them)",
    );
    const grid = lines.filter((l) => /^ *\d* \|.*\|$/.test(l));
    expect(grid).toHaveLength(50);
    expect(grid.every((l) => l.length === grid[0]!.length)).toBe(true);
    // 5076.100 → second 0, row 44 (the 100 ms slice), labelled 100; the busiest shade
    expect(grid[44]).toMatch(/^100 \|@ {41}\|$/);
    expect(grid[49]).toMatch(/^  0 \| {42}\|$/);
    expect(r.out).toMatch(/\n {5}0 {9}10 {8}20 {8}30 {8}40  s\n$/);
  });

  it('reads a .cpuprofile and a 0x folder (from its isolate log)', async () => {
    const cpu = await run(fixturePath('samples/baseline/CPU.20261121.233005.6118.0.001.cpuprofile'), '--json');
    expect(cpu.error).toBeUndefined();
    const hm = JSON.parse(cpu.out) as { columns: number; start: number; values: number[][] };
    expect(hm.columns).toBeGreaterThanOrEqual(1);
    expect(hm.values.flat().reduce((a, b) => a + b, 0)).toBeGreaterThan(100);
    const zx = await run(fixturePath('samples/baseline/0x'));
    expect(zx.error).toBeUndefined();
    expect(zx.out).toMatch(/^0x: \d+ sample\(s\) over \d+ s/);
  });

  it('explains in one line when the file has no sample times', async () => {
    const f = fixturePath('corpus/FlameGraph/generated-41fee1f/default/perf-java-stacks-01-collapsed-default.txt');
    const r = await run(f);
    expect(r.code).toBe(1);
    expect(r.error).toBeInstanceOf(CliError);
    expect(r.error!.message).toBe(
      `${f} has no sample timestamps; heatmaps need perf script, .cpuprofile, Chrome traces with samples or 0x isolate logs`,
    );
    expect(r.out).toBe('');
  });

  it('rejects bad arguments', async () => {
    expect((await run()).error?.message).toMatch(/exactly one FILE/);
    expect((await run('a', 'b')).error?.message).toMatch(/exactly one FILE/);
    for (const rows of ['0', 'ten', '2.5', '-1', '100000', ''])
      expect((await run(`${FS}/perf.test01`, `--rows=${rows}`)).error?.message).toBe(
        `--rows must be a whole number from 1 to 10000, not "${rows}"`,
      );
    const unknown = await run(`${FS}/perf.test01`, '--colour');
    expect((unknown.error as { code?: string }).code).toBe('ERR_PARSE_ARGS_UNKNOWN_OPTION');
    expect((await run('/nope/x.cpuprofile')).error?.message).toMatch(/^\/nope\/x\.cpuprofile: no such file/);
    expect((await run(fixturePath('corpus/FlameGraph/example-dtrace-stacks.txt'))).error?.message).toMatch(
      /example-dtrace-stacks\.txt: .*Supported: /,
    );
  });

  it('has help shaped like the other commands', async () => {
    const r = await run('--help');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Usage: flamelens heatmap FILE \[--rows N\] \[--json\] \[--include-idle\]/);
    expect(r.out).toContain('--include-idle');
    expect(Object.keys(HEATMAP_HELP).sort()).toEqual(['details', 'name', 'summary', 'synopsis']);
    expect(HEATMAP_HELP.name).toBe('heatmap');
  });
});
