/**
 * The streamed `.flamelens` file (version 2): written and read a piece at a time, files written
 * as one JSON text (version 1) still read, and damage anywhere named.
 */
import { readFileSync } from 'node:fs';
import { sampleWeights } from '../model/sample-weights';
import { gunzipSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { importProfile } from '../import/import-profile';
import type { Profile } from '../model/types';
import { weighByDefault } from '../model/weigh';
import { fileSource, fixturePath } from '../../test/support/files';
import { folded } from '../../test/support/folded';
import { DEFAULT_VIEW, type Workspace, WorkspaceError, workspaceDocument } from './workspace';
import { decodeWorkspace, encodeWorkspace, readWorkspaceStream, workspaceStream } from './workspace-file';
import { timeColumn } from '../model/sample-times';

const CPU = 'samples/baseline/CPU.20261121.233005.6118.0.001.cpuprofile';
let cpu: Profile;
let ws: Workspace;

beforeAll(async () => {
  cpu = weighByDefault(await importProfile(fileSource(fixturePath(CPU))));
  ws = {
    savedAt: '2026-11-27T08:00:00.000Z',
    runs: [
      { id: 'a', title: 'baseline', fileName: 'CPU.cpuprofile', profile: cpu },
      { id: 'b', title: 'agent', fileName: 'agent.folded', profile: await folded('main;handler 3\nmain;gc 1', 'agent.folded') },
    ],
    baselineIndex: 1,
    view: { ...DEFAULT_VIEW, query: 'handler' },
    annotations: { title: 't', caption: '', items: [] },
    ranges: [],
  };
});

async function failure(bytes: Uint8Array): Promise<string> {
  const e = await decodeWorkspace(bytes, 'x.flamelens').then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(WorkspaceError);
  return (e as Error).message;
}

describe('the streamed workspace file', () => {
  it('asks for each profile only when the file reaches it, and reads back what was written', async () => {
    const asked: number[] = [];
    const reader = workspaceStream(ws, async (i) => {
      asked.push(i);
      return ws.runs[i]!.profile;
    }).getReader();
    expect(asked).toEqual([]);
    const parts: Uint8Array[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) parts.push(next.value);
    expect(asked).toEqual([0, 1]);
    const plain = gunzipSync(Buffer.concat(parts));
    // line 1 the document without profiles, then a profile line whose columns are bytes beside it
    const lines = plain.toString('latin1').split('\n');
    const head = JSON.parse(lines[0]!);
    expect(head).toMatchObject({ format: 'flamelens-workspace', version: 3, baselineIndex: 1 });
    expect(head.runs[0].profile).toBeUndefined();
    const block = JSON.parse(lines[1]!);
    // the sample times as the table keeps them: a base per block of samples and 4 bytes a sample
    expect(block.profile.samples.time).toBeUndefined();
    expect(block.profile.samples.timeOffset).toEqual({ section: expect.any(Number) });
    expect(block.sections[block.profile.samples.timeOffset.section]).toBe(cpu.samples!.length * 4);
    expect(block.sections[block.profile.samples.timeBase.section]).toBe(Math.ceil(cpu.samples!.length / 65536) * 8);
    // chunk boundaries anywhere: read a byte at a time at the start, then in odd pieces
    const whole = Buffer.concat(parts);
    let at = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (at >= whole.length) return c.close();
        const n = at < 64 ? 1 : 4093;
        c.enqueue(whole.subarray(at, at + n));
        at += n;
      },
    });
    const back = await readWorkspaceStream(stream, 'a.flamelens');
    expect(back.runs.map((r) => r.title)).toEqual(['baseline', 'agent']);
    expect(back.baselineIndex).toBe(1);
    expect(back.view.query).toBe('handler');
    expect(Array.from(timeColumn(back.runs[0]!.profile.samples!))).toEqual(Array.from(timeColumn(cpu.samples!)));
    expect(Array.from(back.runs[0]!.profile.tree.self)).toEqual(Array.from(cpu.tree.self));
  });

  it('opens a file written by version 1 (one JSON text, profiles as base64) as it was saved', async () => {
    const v1 = readFileSync(fixturePath('workspaces/version-1.flamelens'));
    expect(JSON.parse(gunzipSync(v1).toString('utf8')).version).toBe(1);
    const back = await decodeWorkspace(v1, 'version-1.flamelens');
    expect(back.runs.map((r) => [r.title, r.thread])).toEqual([
      ['baseline', undefined],
      ['with dd-trace', undefined],
      ['workers', '71044:37651'],
    ]);
    expect(back.annotations.title).toBe('written by Flamelens with workspace version 1');
    expect(back.ranges).toEqual([{ runId: 'r1', start: 1.5, end: 2.25 }]);
    // the same figures as the file the run came from, imported now
    const p = back.runs[0]!.profile;
    expect(p.samples!.length).toBe(cpu.samples!.length);
    expect(p.tree.total[0]).toBeCloseTo(cpu.tree.total[0]!, 6);
    // (a file written before weights that follow from the unit were left out stores them: the same values)
    expect(sampleWeights(p.samples!, p.unit)).toEqual(sampleWeights(cpu.samples!, cpu.unit));
    // (and before times were kept small, one Float64 column of them: the same values)
    expect(p.samples!.time).toBeInstanceOf(Float64Array);
    expect(cpu.samples!.time).toBeUndefined();
    expect(timeColumn(p.samples!)).toEqual(timeColumn(cpu.samples!));
  });

  it('opens a version-2 file whose sample times are one Float64 column, as files written before small times hold them', async () => {
    const { timeBase: _b, timeOffset: _o, timeWide: _w, ...rest } = cpu.samples!;
    const old: Profile = { ...cpu, samples: { ...rest, time: timeColumn(cpu.samples!) } };
    const back = await decodeWorkspace(
      await encodeWorkspace({ ...ws, runs: [{ ...ws.runs[0]!, profile: old }], baselineIndex: 0 }),
      'old.flamelens',
    );
    const s = back.runs[0]!.profile.samples!;
    expect(s.time).toBeInstanceOf(Float64Array);
    expect(timeColumn(s)).toEqual(timeColumn(cpu.samples!));
    expect(sampleWeights(s, cpu.unit)).toEqual(sampleWeights(cpu.samples!, cpu.unit));
  });

  it('refuses small sample times that do not fit their table, naming the field', async () => {
    const plain = gunzipSync(await encodeWorkspace(ws))
      .toString('latin1')
      .split('\n');
    const block = JSON.parse(plain[1]!);
    block.profile.samples.timeBase = block.profile.samples.timeOffset;
    const forged = [plain[0], JSON.stringify(block), ...plain.slice(2)].join('\n');
    expect(await failure(gzipSync(Buffer.from(forged, 'latin1')))).toMatch(
      /runs\[0\]\.profile\.samples\.timeBase: expected 1 8-byte values \(8 bytes\), found \d+ bytes/,
    );
  });

  it('names the damage: a cut file, a bad section, trailing data, a damaged compression', async () => {
    const bytes = await encodeWorkspace(ws);
    const plain = gunzipSync(bytes);
    expect(await failure(gzipSync(plain.subarray(0, plain.length - 10)))).toMatch(
      /^x\.flamelens: runs\[1\]\.profile: the file ends inside the profile's data/,
    );
    const cut = plain.subarray(0, plain.indexOf(10) + 1);
    expect(await failure(gzipSync(cut))).toMatch(/^x\.flamelens: runs: the file ends before run 1's profile/);
    expect(await failure(gzipSync(Buffer.concat([plain, Buffer.from('more')])))).toMatch(/has data after its last run/);
    const lines = plain.toString('latin1').split('\n');
    const block = JSON.parse(lines[1]!);
    block.profile.tree.self = { section: 999 };
    const forged = Buffer.concat([
      Buffer.from(`${lines[0]}\n${JSON.stringify(block)}\n`, 'latin1'),
      plain.subarray(lines[0]!.length + lines[1]!.length + 2),
    ]);
    expect(await failure(gzipSync(forged))).toMatch(/runs\[0\]\.profile\.tree\.self\.section: is 999, above the largest allowed value/);
    block.profile.tree.self = block.profile.tree.parent; // 4-byte ints where 8-byte floats belong
    const swapped = Buffer.concat([
      Buffer.from(`${lines[0]}\n${JSON.stringify(block)}\n`, 'latin1'),
      plain.subarray(lines[0]!.length + lines[1]!.length + 2),
    ]);
    expect(await failure(gzipSync(swapped))).toMatch(
      /runs\[0\]\.profile\.tree\.self: expected \d+ 8-byte values \(\d+ bytes\), found \d+ bytes/,
    );
    expect(await failure(bytes.subarray(0, bytes.length >> 1))).toMatch(/gzip compression does not decode/);
  });

  it('does not take memory a file only claims to hold', async () => {
    const plain = gunzipSync(await encodeWorkspace(ws))
      .toString('latin1')
      .split('\n');
    const huge = `${plain[0]}\n${JSON.stringify({ sections: [8e9], profile: {} })}\nabc`;
    expect(await failure(Buffer.from(huge, 'latin1'))).toMatch(/runs\[0\]\.profile: the file ends inside the profile's data/);
  });

  it("refuses a gzip bomb as it unpacks, with the importers' budget, not at the size limit", async () => {
    const plain = gunzipSync(await encodeWorkspace(ws))
      .toString('latin1')
      .split('\n');
    // a valid start, then 300 MB of one repeated byte: 0.3 MB of gzip
    const bomb = gzipSync(
      Buffer.concat([Buffer.from(`${plain[0]}\n{"sections":[300000000],"profile":{}}\n`, 'latin1'), Buffer.alloc(300e6, 0x61)]),
      {
        level: 9,
      },
    );
    expect(bomb.length).toBeLessThan(1e6);
    const t0 = performance.now();
    expect(await failure(bomb)).toMatch(/inflates to more than 200 times its size/);
    expect(performance.now() - t0).toBeLessThan(10_000);
  });
});

describe('a run of repeats in a workspace', () => {
  async function withRepeats(): Promise<Workspace> {
    const profiles = [await folded('main;f 2', '1.folded'), await folded('main;f 4\nmain;g 1', '2.folded')];
    const mean = await folded('main;f 3', 'agent');
    return {
      ...ws,
      runs: [
        ws.runs[0]!,
        {
          id: 'r',
          title: 'agent',
          fileName: 'agent',
          profile: mean,
          repeats: { profiles, names: ['1.folded', '2.folded'], failed: [{ name: '3.folded', error: '3.folded:2: bad' }], shown: 1 },
        },
      ],
    };
  }
  const selfs = (p: Profile) => Array.from(p.tree.self);

  it('keeps each repeat, which failed and which is shown, streamed and as one JSON text, after the run it belongs to', async () => {
    const w = await withRepeats();
    const asked: number[] = [];
    const reader = workspaceStream(w, async (i) => {
      asked.push(i);
      return [w.runs[0]!.profile, w.runs[1]!.profile, ...w.runs[1]!.repeats!.profiles][i]!;
    }).getReader();
    const parts: Uint8Array[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) parts.push(next.value);
    expect(asked).toEqual([0, 1, 2, 3]);
    for (const back of [
      await decodeWorkspace(Buffer.concat(parts), 'w.flamelens'),
      await decodeWorkspace(new TextEncoder().encode(JSON.stringify(workspaceDocument(w, true))), 'w.flamelens'),
    ]) {
      const r = back.runs[1]!;
      expect(selfs(r.profile)).toEqual(selfs(w.runs[1]!.profile));
      expect(r.repeats!.profiles.map(selfs)).toEqual(w.runs[1]!.repeats!.profiles.map(selfs));
      expect(r.repeats!.names).toEqual(['1.folded', '2.folded']);
      expect(r.repeats!.failed).toEqual([{ name: '3.folded', error: '3.folded:2: bad' }]);
      expect(r.repeats!.shown).toBe(1);
      expect(back.runs[0]!.repeats).toBeUndefined();
    }
  });

  it('names a file whose repeats do not add up', async () => {
    const w = await withRepeats();
    const doc = JSON.parse(JSON.stringify(workspaceDocument(w, true)));
    doc.runs[1].repeats.profiles.pop();
    await expect(decodeWorkspace(new TextEncoder().encode(JSON.stringify(doc)), 'w.flamelens')).rejects.toThrow(
      'w.flamelens: runs[1].repeats.profiles: holds 1 profiles for 2 repeats',
    );
    doc.runs[1].repeats = { names: ['1.folded'], shown: 3, profiles: [doc.runs[0].profile] };
    await expect(decodeWorkspace(new TextEncoder().encode(JSON.stringify(doc)), 'w.flamelens')).rejects.toThrow(
      /runs\[1\]\.repeats\.shown/,
    );
    // a streamed file cut after the run's own profile: its repeats are missing
    const bytes = gunzipSync(await encodeWorkspace(w));
    const cut = bytes.subarray(0, bytes.lastIndexOf('{"sections"'));
    await expect(decodeWorkspace(gzipSync(cut), 'w.flamelens')).rejects.toThrow(/ends before run 2's profile/);
  });
});
