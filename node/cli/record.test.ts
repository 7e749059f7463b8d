import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importProfile } from '../../shared/import/import-profile';
import { decodeWorkspace } from '../../shared/workspace/workspace-file';
import { fileSource } from '../../test/support/files';
import { writeRecordServer } from '../../test/support/record-server';
import { captureFailure } from '../../test/support/cli-output';
import { recordCommand } from './record';
import { LIMITS } from './record-run';
import { perfUnavailable } from './record-capture';

const dir = mkdtempSync(join(tmpdir(), 'flamelens-record-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const server = writeRecordServer(dir);

describe('flamelens record', () => {
  it('records a baseline and an agent-like wrapper: timed runs, profiles, an overhead interval above 0', async () => {
    const out = join(dir, 'study');
    const r = await captureFailure((o) =>
      recordCommand.run(
        [
          '--out',
          out,
          '--repeat',
          '3',
          '--requests',
          '2000',
          '--variant',
          `baseline=node ${server}`,
          '--variant',
          `agent=node ${server} --agent`,
          '--json',
        ],
        o,
      ),
    );
    expect(r.error).toBeUndefined();
    expect(r.code).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      baseline: string;
      variants: {
        name: string;
        command: string;
        runs: { seconds: number; requests: number; errors: number; rps: number; latency: { p50: number; p99: number } }[];
        median: { seconds: number; rps: number };
        overhead?: { median: number; low: number; high: number };
        files: string[];
      }[];
    };
    expect(summary.baseline).toBe('baseline');
    expect(summary.variants.map((v) => v.name)).toEqual(['baseline', 'agent']);
    for (const v of summary.variants) {
      expect(v.runs).toHaveLength(3);
      for (const run of v.runs) {
        expect(run.requests).toBeGreaterThanOrEqual(2000);
        expect(run.errors).toBe(0);
        expect(run.seconds).toBeGreaterThan(0);
        expect(run.rps).toBeCloseTo(run.requests / run.seconds, 6);
        expect(run.latency.p99).toBeGreaterThanOrEqual(run.latency.p50);
      }
      expect(v.median.seconds).toBeGreaterThan(0);
    }
    const agent = summary.variants[1]!;
    expect(agent.overhead!.low).toBeGreaterThan(0);
    expect(agent.overhead!.low).toBeLessThanOrEqual(agent.overhead!.median);
    expect(agent.overhead!.median).toBeLessThanOrEqual(agent.overhead!.high);
    expect(summary.variants[0]!.overhead).toBeUndefined();

    // the profiled run of the wrapper shows the wrapper
    const profile = readdirSync(join(out, 'agent')).find((f) => f.endsWith('.cpuprofile'))!;
    expect(profile).toMatch(/^CPU\..*\.cpuprofile$/);
    const p = await importProfile(fileSource(join(out, 'agent', profile)));
    expect(p.frames.name).toContain('agentWrap');
    expect(readdirSync(join(out, 'agent')).some((f) => /^node_trace\.\d+\.log$/.test(f))).toBe(true);
    expect(agent.files.some((f) => f.endsWith('.cpuprofile'))).toBe(true);

    // the workspace that opens the whole experiment: both runs, the baseline marked, the figures as its caption
    const ws = await decodeWorkspace(readFileSync(join(out, 'comparison.flamelens')), 'comparison.flamelens');
    expect(ws.runs.map((r) => r.title)).toEqual(['baseline', 'agent']);
    expect(ws.baselineIndex).toBe(0);
    expect(ws.runs[1]!.profile.frames.name).toContain('agentWrap');
    expect(ws.annotations.caption).toMatch(/agent: 3 runs, median [\d.]+ s, \d+ req\/s, overhead \+/);
    // each run carries its variant's figures from summary.json, for the app to show beside its pane
    for (const [i, v] of summary.variants.entries()) {
      const requests = v.runs.map((x) => x.requests).sort((a, b) => a - b)[1]!;
      expect(ws.runs[i]!.measured).toEqual({
        runs: 3,
        requests,
        seconds: v.median.seconds,
        ...(v.overhead ? { overhead: v.overhead } : {}),
      });
    }
  }, 120_000);

  it('captures a heap snapshot right after the load, and perf script where perf may record (else a note)', async () => {
    const out = join(dir, 'heap-perf');
    const perfMissing = perfUnavailable(dir);
    const r = await captureFailure((o) =>
      recordCommand.run(
        [
          ...['--out', out, '--repeat', '1', '--requests', '1000', '--capture', 'heap,perf', '--json'],
          ...['--variant', `baseline=node ${server}`, '--variant', `agent=node ${server} --agent`],
        ],
        o,
      ),
    );
    expect(r.error).toBeUndefined();
    expect(r.code).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { notes?: string[] };
    for (const variant of ['baseline', 'agent']) {
      const files = readdirSync(join(out, variant));
      // one snapshot: of the process that serves, named as Node names them
      const snapshots = files.filter((f) => f.endsWith('.heapsnapshot'));
      expect(snapshots).toHaveLength(1);
      expect(snapshots[0]).toMatch(/^Heap\.\d{8}\.\d{6}\.\d+\.0\.\d+\.heapsnapshot$/);
      const raw = JSON.parse(readFileSync(join(out, variant, snapshots[0]!), 'utf8')) as { snapshot: { node_count: number } };
      const heap = await importProfile(fileSource(join(out, variant, snapshots[0]!)));
      expect(heap.kind).toBe('heap');
      expect(heap.heap!.nodeCount).toBe(raw.snapshot.node_count);
      expect(files.some((f) => f.endsWith('.cpuprofile'))).toBe(false);
      expect(files).not.toContain('perf.data');
      if (perfMissing) continue;
      const perf = await importProfile(fileSource(join(out, variant, 'perf.script.txt')));
      expect(perf.format).toBe('perf-script');
      expect(perf.frames.name.some((n) => n.includes('agentWrap'))).toBe(variant === 'agent');
      // the JIT map files V8 wrote for perf are gone
      const pids = new Set(perf.meta.threads!.map((t) => t.pid || t.tid));
      expect(pids.size).toBeGreaterThan(0);
      expect(readdirSync('/tmp').filter((f) => pids.has(/^perf-(\d+)\.map$/.exec(f)?.[1] ?? 'none'))).toEqual([]);
      // and so is the isolate log `--perf-basic-prof` makes V8 write where the command ran
      expect(readdirSync(process.cwd()).filter((f) => pids.has(/^isolate-0x[0-9a-f]+-(\d+)/.exec(f)?.[1] ?? 'none'))).toEqual([]);
    }
    if (perfMissing) expect(summary.notes).toEqual([`perf: not captured (${perfMissing})`]);
    else expect(summary.notes).toBeUndefined();
  }, 120_000);

  it('a server that never listens, one that crashes under load and a missing command each fail alone, named', async () => {
    const listen = LIMITS.listenMs;
    LIMITS.listenMs = 2000;
    try {
      const out = join(dir, 'failures');
      const r = await captureFailure((o) =>
        recordCommand.run(
          [
            '--out',
            out,
            '--repeat',
            '1',
            '--requests',
            '200',
            '--capture',
            'none',
            '--variant',
            `baseline=node ${server}`,
            '--variant',
            `never=node -e "setInterval(() => {}, 1000)"`,
            '--variant',
            `crash=node ${server} --crash`,
            '--variant',
            'missing=no-such-command-flamelens',
          ],
          o,
        ),
      );
      expect(r.code).toBe(1);
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
        variants: { name: string; runs: unknown[]; error?: string }[];
      };
      const byName = Object.fromEntries(summary.variants.map((v) => [v.name, v]));
      expect(byName.baseline!.runs).toHaveLength(1);
      expect(byName.baseline!.error).toBeUndefined();
      expect(byName.never!.error).toMatch(/^never: the server did not listen on port \d+ within 2 s/);
      expect(byName.crash!.error).toMatch(/^crash: the server exited with code 3 under load/);
      expect(byName.missing!.error).toMatch(/^missing: the server exited with code 127 before it listened.*not found/);
      for (const v of ['never', 'crash', 'missing']) expect(r.err).toContain(`flamelens: ${v}: `);
      expect(r.out).toContain('failed: never:');
    } finally {
      LIMITS.listenMs = listen;
    }
  }, 120_000);
});
