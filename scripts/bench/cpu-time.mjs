// CPU time of the app path by process (Linux): the app's wall time is a chain through the server,
// Chromium's browser, network and renderer processes (the page and its workers); on a shared
// machine the wall time follows the neighbours' load, the CPU each process spent does far less.
import { readFileSync, readdirSync } from 'node:fs';

/** ms per clock tick of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

/** The kind of a Chromium process from its command line: browser, renderer, gpu, network, or another utility. */
export function processKind(cmdline) {
  const type = /--type=([\w-]+)/.exec(cmdline)?.[1];
  if (type === undefined) return 'browser';
  if (type === 'gpu-process') return 'gpu';
  if (type === 'utility') return /NetworkService/.test(cmdline) ? 'network' : 'utility';
  return type === 'renderer' ? 'renderer' : 'other';
}

/** { ppid, cpuMs } of a process from its /proc/<pid>/stat, or undefined once it is gone. */
function stat(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), cpuMs: (Number(f[11]) + Number(f[12])) * TICK_MS };
  } catch {
    return undefined;
  }
}

/** CPU ms (user + system) a process has used so far; 0 once it is gone. */
export function processCpuMs(pid) {
  return stat(pid)?.cpuMs ?? 0;
}

/**
 * CPU ms used so far by `root` and every process below it, by kind (`processKind`): { browser,
 * renderer, gpu, network, ... }. Off Linux: {}.
 */
export function treeCpuMs(root) {
  let pids;
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return {};
  }
  const stats = new Map();
  for (const p of pids) {
    const s = stat(p);
    if (s) stats.set(Number(p), s);
  }
  const under = (pid) => {
    for (let p = pid, i = 0; p > 1 && i < 6; i++, p = stats.get(p)?.ppid ?? 0) if (p === root) return true;
    return false;
  };
  const out = {};
  for (const [pid, s] of stats) {
    if (!under(pid)) continue;
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    const kind = processKind(cmd);
    out[kind] = (out[kind] ?? 0) + s.cpuMs;
  }
  return out;
}

/** What each kind used between two `treeCpuMs` snapshots (a process started in between counts whole). */
export function cpuSince(before, after) {
  return Object.fromEntries(Object.entries(after).map(([k, v]) => [k, Math.max(0, v - (before[k] ?? 0))]));
}
