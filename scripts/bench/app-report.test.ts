import { describe, expect, it } from 'vitest';
import { appTable, appTargets, cpuTable, startLines, type AppRow } from './app-report.mjs';
import { runWithPeak } from './peak-rss.mjs';

const row = (over: Partial<AppRow>): AppRow => ({
  format: 'cpuprofile',
  sizeMB: 100,
  bytes: 100e6,
  limitMs: 500,
  cliMs: 1000,
  navigationMs: 1500,
  ratio: 1.5,
  longestTaskMs: 120,
  rendererPeakBytes: 250e6,
  rendererPerFile: 2.5,
  cliPeakRssBytes: 150e6,
  cliPerFile: 1.5,
  ...over,
});

describe('appTargets', () => {
  it('judges every figure against its target, a time at its limit met, a memory at its limit not', () => {
    const met = (a: AppRow) => Object.fromEntries(appTargets(a).map((t) => [t.key, t.met]));
    expect(met(row({}))).toEqual({ ratio: true, longestTaskMs: true, rendererPerFile: true, cliPerFile: true });
    expect(met(row({ ratio: 2, longestTaskMs: 200, rendererPerFile: 3, cliPerFile: 2 }))).toEqual({
      ratio: true,
      longestTaskMs: true,
      rendererPerFile: false,
      cliPerFile: false,
    });
    expect(met(row({ ratio: 2.01, longestTaskMs: 201 }))).toMatchObject({ ratio: false, longestTaskMs: false });
  });

  it('leaves out what was not measured, and names the input by its label', () => {
    const ts = appTargets(row({ label: 'cpuprofile, 10 M samples', rendererPeakBytes: undefined, rendererPerFile: undefined }));
    expect(ts.map((t) => t.key)).toEqual(['ratio', 'longestTaskMs', 'cliPerFile']);
    expect(ts[0]!.what).toBe('app cpuprofile, 10 M samples 100 MB: app ≤ 2× the CLI');
    expect(ts[0]!.value).toBe('1.50× (1500 ms vs 1000 ms)');
  });
});

describe('appTable', () => {
  it('prints each figure with its mark', () => {
    const lines = appTable([row({ cliPerFile: 2.64, cliPeakRssBytes: 264e6 })], 3);
    const line = lines.find((l) => l.startsWith('cpuprofile'))!;
    expect(line).toMatch(/500 ms +1000 ms +1500 ms +1\.50 ✓ +120 ms ✓ +250 MB +2\.50 ✓ +264 MB +2\.64 ✗$/);
  });
});

describe('startLines', () => {
  it('gives the fixed costs and the least time the command must take for the app to be within 2× of it', () => {
    const [line] = startLines({ navigationMs: 612.4, cliMs: 118.6 });
    expect(line).toMatch(/the app 612 ms .*the command 119 ms; .*at least 306 ms/);
    expect(appTable([row({})], 3, { navigationMs: 600, cliMs: 100 }).some((l) => l.includes('at least 300 ms'))).toBe(true);
    expect(appTable([row({})], 3).some((l) => l.startsWith('Fixed costs'))).toBe(false);
  });
});

describe('cpuTable', () => {
  it('shows the CPU each process spent, their sum and its ratio to the command’s', () => {
    const lines = cpuTable([
      row({ cliCpuMs: 400, appCpuMs: { renderer: 700, network: 60, browser: 90, gpu: 20, server: 50, utility: 80 } }),
      row({ format: 'folded' }),
    ]);
    expect(lines).toHaveLength(3);
    // the sum holds every kind, the utility processes too
    expect(lines[2]).toMatch(/^cpuprofile +100 MB +400 +1000 +2\.50 +700 +60 +90 +20 +50$/);
    expect(cpuTable([row({})])).toEqual([]);
  });
});

describe('runWithPeak', () => {
  it("reports a command's peak resident memory: one that fills 200 MB peaks above it", () => {
    const fill = 'const b = new Uint8Array(200e6); b.fill(1); console.log(b[123]);';
    const small = runWithPeak(['-e', 'console.log(1)'], process.cwd());
    const big = runWithPeak(['-e', fill], process.cwd());
    expect(small.status).toBe(0);
    expect(big.status).toBe(0);
    expect(big.peakRssBytes!).toBeGreaterThan(200e6);
    expect(big.peakRssBytes! - small.peakRssBytes!).toBeGreaterThan(190e6);
    expect(small.peakRssBytes!).toBeLessThan(150e6);
  });

  it("reports a command's CPU time: one that computes for 300 ms of CPU used at least that", () => {
    const idle = runWithPeak(['-e', 'setTimeout(() => {}, 300)'], process.cwd());
    const busy = runWithPeak(['-e', 'while (process.cpuUsage().user < 300_000);'], process.cwd());
    expect(busy.cpuMs!).toBeGreaterThanOrEqual(300);
    expect(idle.cpuMs!).toBeLessThan(busy.cpuMs!);
    expect(idle.ms).toBeGreaterThanOrEqual(300);
  });
});
