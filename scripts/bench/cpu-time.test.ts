import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cpuSince, processCpuMs, processKind, treeCpuMs } from './cpu-time.mjs';

describe('CPU time of the app path', () => {
  it('tells Chromium’s processes apart by their command lines', () => {
    expect(processKind('/usr/lib/chromium/chromium\0--no-sandbox\0--user-data-dir=/tmp/x')).toBe('browser');
    expect(processKind('/usr/lib/chromium/chromium\0--type=renderer\0--lang=en')).toBe('renderer');
    expect(processKind('/usr/lib/chromium/chromium\0--type=gpu-process')).toBe('gpu');
    expect(processKind('chromium\0--type=utility\0--utility-sub-type=network.mojom.NetworkService')).toBe('network');
    expect(processKind('chromium\0--type=utility\0--utility-sub-type=storage.mojom.StorageService')).toBe('utility');
    expect(processKind('chromium\0--type=zygote')).toBe('other');
  });

  it('counts what the processes below a root spent, the root included', async () => {
    const before = treeCpuMs(process.pid);
    // a child that spends 400 ms of CPU (however long that takes on a busy machine), then waits
    const child = spawn(
      process.execPath,
      ['-e', 'while (process.cpuUsage().user < 400_000); console.log("spent"); setTimeout(() => {}, 30_000)'],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    try {
      await new Promise((r) => child.stdout.once('data', r));
      const spent = cpuSince(before, treeCpuMs(process.pid));
      // the test runner and the child are both "browser" by their command lines (no --type)
      expect(spent.browser).toBeGreaterThanOrEqual(400);
      expect(processCpuMs(child.pid!)).toBeGreaterThanOrEqual(400);
      expect(processCpuMs(-1)).toBe(0);
    } finally {
      child.kill();
    }
  });
});
