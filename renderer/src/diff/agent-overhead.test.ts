/**
 * "Where does the agent's overhead come from", asked of the real captures (baseline and dd-trace,
 * `node --cpu-prof`) the way a user asks it: the diff table with the app's default settings, and
 * `flamelens diff` with its defaults. The top rows must be the agent's frames and what they call —
 * not Fastify or Node functions marked new, not the entry scripts — and in absolute mode Fastify's
 * and Node's functions must read as taking more time, not less.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { diffCommand } from '../../../node/cli/diff';
import type { FunctionDiff } from '../../../shared/diff/diff';
import { importProfile } from '../../../shared/import/import-profile';
import { Category, type Profile } from '../../../shared/model/types';
import { memoryOutput } from '../../../test/support/cli-output';
import { SAMPLES, fileSource } from '../../../test/support/files';
import { rawStacks } from '../../../test/support/raw-cpuprofile';
import { comparedProfile, diffFor } from '../store/derived';
import { useStore } from '../store/store';
import { rankedRows } from './diff-rows';

const cpuprofile = (v: string) =>
  join(
    SAMPLES,
    v,
    readdirSync(join(SAMPLES, v)).find((f) => f.endsWith('.cpuprofile'))!,
  );
const BASE = cpuprofile('baseline');
const RUN = cpuprofile('ddtrace');

const isAgent = (file: string) => file.includes('node_modules/dd-trace/');
const isEntry = (file: string) => /server-(baseline|ddtrace)\.js$/.test(file);
const isFastify = (f: { file: string }) => f.file.includes('node_modules/fastify/');

let base: Profile;
let run: Profile;

/** Whether every call-tree node of the function `key` in `p` has an agent frame above it: code only the agent calls. */
function onlyUnderAgent(p: Profile, key: string): boolean {
  const t = p.tree;
  let seen = false;
  for (let i = 1; i < t.length; i++) {
    if (p.frames.key[t.frame[i]!] !== key || !(t.total[i]! > 0)) continue;
    seen = true;
    let agent = false;
    for (let v = t.parent[i]!; v > 0 && !agent; v = t.parent[v]!) agent = isAgent(p.frames.file[t.frame[v]!]!);
    if (!agent) return false;
  }
  return seen;
}

/** What makes the top rows an answer: the agent's frames and what only they call lead. */
function expectAgentLeads(
  rows: { name: string; file: string; status: string; key?: string }[],
  keyOf: (r: (typeof rows)[number]) => string,
) {
  expect(isAgent(rows[0]!.file)).toBe(true);
  const top = rows.slice(0, 20);
  expect(top.slice(0, 10).filter((r) => isAgent(r.file)).length).toBeGreaterThanOrEqual(5);
  for (const r of top) {
    expect(isEntry(r.file), `${r.name} ${r.file}`).toBe(false);
    if (r.status === 'new') expect(isAgent(r.file) || onlyUnderAgent(run, keyOf(r)), `${r.name} ${r.file}`).toBe(true);
  }
}

beforeAll(async () => {
  [base, run] = await Promise.all([importProfile(fileSource(BASE)), importProfile(fileSource(RUN))]);
});

describe('the diff table with the default settings', () => {
  const rowsFor = (normalize: 'absolute' | 'relative') => {
    const s = useStore.getState();
    const d = diffFor(base, comparedProfile(run, base, s.matchEntry), normalize, s.noisePercent).diff!;
    return rankedRows(d, s.tableStatus, s.diffMeasure, '');
  };

  it("leads with dd-trace's frames and what they call, never a Fastify or Node function marked new, nor an entry script", () => {
    expect(useStore.getState().normalize).toBe('absolute');
    const rows = rowsFor('absolute');
    expectAgentLeads(rows, (r) => (r as FunctionDiff).key);
    // Fastify's hook runners run only for the hooks dd-trace adds: new, and only under the agent
    for (const f of rows) if (isFastify(f) && f.status === 'new') expect(onlyUnderAgent(run, f.key), f.name).toBe(true);
    expect(rows.filter(isFastify).length).toBeGreaterThan(10);
  });

  it('shows Fastify and Node core taking more time in absolute mode, as shares mostly less', () => {
    const tally = (rows: FunctionDiff[]) => {
      const ours = rows.filter((f) => f.status === 'changed' && (isFastify(f) || f.category === Category.NodeCore));
      return { more: ours.filter((f) => f.delta.total > 0).length, less: ours.filter((f) => f.delta.total < 0).length };
    };
    const abs = tally(rowsFor('absolute'));
    expect(abs.more).toBeGreaterThan(3 * abs.less);
    const rel = tally(rowsFor('relative'));
    expect(rel.less).toBeGreaterThan(rel.more);
  });

  it("gives the top row's figures as the raw file has them", () => {
    const top = rowsFor('absolute')[0]!;
    // counted straight from the JSON: samples whose stack holds the function (once per sample)
    const stacks = rawStacks(RUN);
    const holds = (st: { name: string; url: string }[]) =>
      st.some((f) => f.name === top.name && f.url.endsWith(top.file.replace(/^.*node_modules\//, 'node_modules/')));
    const count = stacks.filter(holds).length;
    expect(count).toBeGreaterThan(500);
    expect(run.unit).toBe('samples');
    expect(top.run.total).toBe(count);
    expect(top.baseline.total).toBe(0);
    expect(rawStacks(BASE).filter(holds).length).toBe(0);
  });
});

describe('flamelens diff with its defaults', () => {
  it('agrees with the table: the same leading functions, with the same statuses', async () => {
    const out = memoryOutput();
    expect(await diffCommand.run([BASE, RUN, '--json', '--top', '20'], out)).toBe(0);
    const j = JSON.parse(out.out) as { normalize: string; functions: { name: string; file: string; status: string }[] };
    expect(j.normalize).toBe('absolute');
    const s = useStore.getState();
    const table = rankedRows(diffFor(base, comparedProfile(run, base, true), 'absolute', s.noisePercent).diff!, 'all', 'total', '');
    const key = (r: { name: string; file: string }) => `${r.name}\t${r.file}`;
    const tableByKey = new Map(table.map((f) => [key(f), f]));
    expectAgentLeads(j.functions, (r) => tableByKey.get(key(r))!.key);
    expect(key(j.functions[0]!)).toBe(key(table[0]!));
    for (const f of j.functions) if (tableByKey.has(key(f))) expect(f.status).toBe(tableByKey.get(key(f))!.status);
  });
});
