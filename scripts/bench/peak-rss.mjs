// Peak memory of a command the benchmark times. Preloaded into it (`node --import` this file), it
// writes the process's peak resident set size (its high-water mark, bytes) on exit to the file
// named by FLAMELENS_BENCH_PEAK_FILE; `runWithPeak` runs a Node command so and reads it back.
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
if (out) process.on('exit', () => writeFileSync(out, String(peakRss())));

/**
 * Runs `node ARGS` in `cwd` (output discarded): { ms, peakRssBytes, status, stderr }: its wall
 * time and its peak RSS (undefined when it died before writing it).
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
    let peakRssBytes;
    try {
      peakRssBytes = Number(readFileSync(peakFile, 'utf8'));
    } catch {
      peakRssBytes = undefined;
    }
    return { ms, peakRssBytes, status: r.status, stderr: String(r.stderr) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
