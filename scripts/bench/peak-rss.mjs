// Peak memory and CPU time of a command the benchmark times. Preloaded into it (`node --import`
// this file), it writes the process's peak resident set size (its high-water mark, bytes) and the
// CPU time it used (user + system, ms) on exit to the file named by FLAMELENS_BENCH_PEAK_FILE;
// `runWithPeak` runs a Node command so and reads them back.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The process's peak resident set size: VmHWM, the high-water mark of its own memory (Linux).
 * Not `maxRSS` where VmHWM can be read: getrusage's figure survives exec, so a process started
 * from a big one (a test runner, the benchmark) reports at least its parent's size at the fork.
 */
function peakRss() {
  try {
    const m = /VmHWM:\s*(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS * 1024;
}

const out = process.env.FLAMELENS_BENCH_PEAK_FILE;
if (out)
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    writeFileSync(out, JSON.stringify({ peakRssBytes: peakRss(), cpuMs: (user + system) / 1000 }));
  });

/**
 * Runs `node ARGS` in `cwd` (output discarded): { ms, peakRssBytes, cpuMs, status, stderr }: its
 * wall time, its peak RSS and its CPU time (undefined when it died before writing them).
 */
export function runWithPeak(args, cwd) {
  const dir = mkdtempSync(join(tmpdir(), 'flamelens-bench-peak-'));
  const peakFile = join(dir, 'peak');
  try {
    const t = performance.now();
    const r = spawnSync(process.execPath, ['--import', import.meta.url, ...args], {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, FLAMELENS_BENCH_PEAK_FILE: peakFile },
    });
    const ms = performance.now() - t;
    let written = {};
    try {
      written = JSON.parse(readFileSync(peakFile, 'utf8'));
    } catch {
      // died before writing them
    }
    return { ms, peakRssBytes: written.peakRssBytes, cpuMs: written.cpuMs, status: r.status, stderr: String(r.stderr) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
