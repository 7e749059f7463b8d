import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DropChallenge } from '../../shared/ipc/contract';
import { CHALLENGE_TTL_MS, MAX_PENDING, SAMPLE_BYTES, SAMPLE_COUNT, WHOLE_FILE_BYTES, createDropVerifier, pickRanges } from './drop-proof';

let dir: string;
let small: string;
let big: string;
let secret: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'flamelens-drop-'));
  small = join(dir, 'a.cpuprofile');
  writeFileSync(small, '{"nodes":[]}');
  big = join(dir, 'perf.script.txt');
  // 200 KiB that differ everywhere, so that a wrong range cannot match by chance
  writeFileSync(big, Buffer.from(Array.from({ length: 200 * 1024 }, (_, i) => (i * 7919 + (i >> 8)) & 0xff)));
  secret = join(dir, 'id_ed25519');
  writeFileSync(secret, '-----BEGIN OPENSSH PRIVATE KEY-----\nnot for the renderer\n');
  mkdirSync(join(dir, '77.0x'));
  writeFileSync(join(dir, '77.0x', 'meta.json'), '{}');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** What an honest preload sends: the bytes of the dropped file at the ranges asked for. */
function honest(challenge: DropChallenge, paths: string[]): Uint8Array[][] {
  return challenge.ranges.map((ranges, i) => ranges.map(([o, l]) => new Uint8Array(readFileSync(paths[i]!).subarray(o, o + l))));
}

describe('pickRanges', () => {
  it('asks for a small file whole', () => {
    expect(pickRanges(12)).toEqual([[0, 12]]);
    expect(pickRanges(WHOLE_FILE_BYTES)).toEqual([[0, WHOLE_FILE_BYTES]]);
  });

  it('asks a larger file for its first and last bytes and windows at random places inside it', () => {
    const size = 10_000_000;
    const ranges = pickRanges(size);
    expect(ranges).toHaveLength(SAMPLE_COUNT);
    expect(ranges[0]).toEqual([0, SAMPLE_BYTES]);
    expect(ranges.at(-1)).toEqual([size - SAMPLE_BYTES, SAMPLE_BYTES]);
    for (const [o, l] of ranges) expect(o >= 0 && o + l <= size).toBe(true);
    // not the same places twice: an answer cannot be prepared in advance
    expect(pickRanges(size)).not.toEqual(ranges);
  });
});

describe('drop proof', () => {
  it('adds the files whose bytes the renderer sent back, small and large', async () => {
    const v = createDropVerifier();
    const paths = [small, big];
    const c = await v.challenge(paths.map((path) => ({ path, size: readFileSync(path).byteLength })));
    expect(c.ranges[0]).toEqual([[0, 12]]);
    expect(c.ranges[1]).toHaveLength(SAMPLE_COUNT);
    expect(await v.verify(c.id, honest(c, paths))).toEqual([small, big]);
  });

  it('refuses a path claimed without the file’s bytes: a compromised renderer cannot register /any/path', async () => {
    const v = createDropVerifier();
    const c = await v.challenge([{ path: secret, size: readFileSync(secret).byteLength }]);
    // it does not know the content: zeros, a guess at the head, or nothing at all
    const size = readFileSync(secret).byteLength;
    const guess = new TextEncoder().encode('-----BEGIN OPENSSH PRIVATE KEY-----\n'.padEnd(size, 'A'));
    expect(await v.verify(c.id, [[new Uint8Array(size)]])).toEqual([]);
    const again = await v.challenge([{ path: secret, size }]);
    expect(await v.verify(again.id, [[guess]])).toEqual([]);
    const third = await v.challenge([{ path: secret, size }]);
    expect(await v.verify(third.id, [null])).toEqual([]);
  });

  it('refuses bytes of another file sent for a large file (the ranges are the file’s own)', async () => {
    const v = createDropVerifier();
    const size = readFileSync(big).byteLength;
    const c = await v.challenge([{ path: big, size }]);
    const shifted = c.ranges[0]!.map(([o, l]) => new Uint8Array(readFileSync(big).subarray(o + 1, o + 1 + l)));
    expect(await v.verify(c.id, [shifted])).toEqual([]);
    // one window right is not enough
    const c2 = await v.challenge([{ path: big, size }]);
    const answers = honest(c2, [big]);
    answers[0]![5] = new Uint8Array(SAMPLE_BYTES);
    expect(await v.verify(c2.id, answers)).toEqual([]);
  });

  it('refuses folders, empty files, missing files and a size that is not the file’s', async () => {
    const v = createDropVerifier();
    writeFileSync(join(dir, 'empty'), '');
    const claims = [
      { path: join(dir, '77.0x'), size: 12 },
      { path: join(dir, 'empty'), size: 0 },
      { path: join(dir, 'gone.cpuprofile'), size: 12 },
      { path: small, size: 13 },
      { path: small, size: 12 },
    ];
    const c = await v.challenge(claims);
    // an honest answer for each claim (the small file's bytes, cut to the claimed size)
    const bytes = readFileSync(small);
    const answers = c.ranges.map((ranges) =>
      ranges.map(([o, l]) => new Uint8Array(Buffer.concat([bytes, Buffer.alloc(1)]).subarray(o, o + l))),
    );
    expect(await v.verify(c.id, answers)).toEqual([small]);
  });

  it('answers every claim alike, so that a challenge says nothing of what exists', async () => {
    const v = createDropVerifier();
    const size = readFileSync(secret).byteLength;
    const c = await v.challenge([
      { path: secret, size },
      { path: join(dir, 'no-such-file'), size },
      { path: join(dir, '77.0x'), size },
    ]);
    expect(c.ranges).toEqual([[[0, size]], [[0, size]], [[0, size]]]);
    const large = await v.challenge([
      { path: big, size: 200 * 1024 },
      { path: join(dir, 'no-such-file'), size: 200 * 1024 },
    ]);
    expect(large.ranges.map((r) => r.length)).toEqual([SAMPLE_COUNT, SAMPLE_COUNT]);
  });

  it('answers each challenge once, and not after it expired', async () => {
    let t = 1_000;
    const v = createDropVerifier(() => t);
    const claims = [{ path: small, size: 12 }];
    const c = await v.challenge(claims);
    expect(await v.verify(c.id, honest(c, [small]))).toEqual([small]);
    await expect(v.verify(c.id, honest(c, [small]))).rejects.toThrow(/unknown or expired/);
    const late = await v.challenge(claims);
    t += CHALLENGE_TTL_MS;
    await expect(v.verify(late.id, honest(late, [small]))).rejects.toThrow(/unknown or expired/);
    await expect(v.verify('forged', [])).rejects.toThrow(/unknown or expired/);
    await expect(v.verify(42, [])).rejects.toThrow(/unknown or expired/);
  });

  it('keeps only a few challenges waiting', async () => {
    const v = createDropVerifier();
    const first = await v.challenge([{ path: small, size: 12 }]);
    for (let i = 0; i < MAX_PENDING; i++) await v.challenge([{ path: small, size: 12 }]);
    await expect(v.verify(first.id, honest(first, [small]))).rejects.toThrow(/unknown or expired/);
  });

  it('wants one answer per claimed file', async () => {
    const v = createDropVerifier();
    const c = await v.challenge([{ path: small, size: 12 }]);
    await expect(v.verify(c.id, 'bytes')).rejects.toThrow(/one answer per dropped file/);
  });

  it.each([
    ['a string', '/x'],
    ['bare paths', ['/x']],
    ['non-string paths', [{ path: 42, size: 1 }]],
    ['relative paths', [{ path: 'x.cpuprofile', size: 1 }]],
    ['NUL bytes', [{ path: '/x\0y', size: 1 }]],
    ['a size that is not a byte count', [{ path: '/x', size: -1 }]],
    ['a size past any disk', [{ path: '/x', size: 2 ** 52 }]],
    ['too many files', Array.from({ length: 1001 }, (_, i) => ({ path: `/f${i}`, size: 1 }))],
  ])('rejects claims given as %s', async (_name, claims) => {
    await expect(createDropVerifier().challenge(claims)).rejects.toThrow(/paths|size/);
  });
});
