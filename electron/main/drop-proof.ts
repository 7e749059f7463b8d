/**
 * Dropped files reach the recent list only when the renderer proves it holds them. A drop is the
 * one way files reach the app without main choosing them (dialog, command line, file manager): the
 * renderer reads a dropped file itself, through the File API, and main learns its path only from
 * the renderer. A renderer that a hostile profile had taken over could claim any path — and a path
 * on the recent list is one main will open and hand out a read token for. So main asks for
 * proof: for each claimed file, bytes at places it picks at random (the whole file when small),
 * which the preload reads from the dropped `File` and main compares with the file on disk. The
 * sandboxed renderer can read only files the person dropped or chose, so a path it was not given
 * cannot be proven (short of knowing the file's content already, when reading it gains nothing).
 * Each challenge answers once and expires. Electron-free, tested without Electron.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type { DropChallenge, DropClaim } from '../../shared/ipc/contract';
import { InvalidArgumentError } from '../../node/host/files';

/** Files up to this size are asked for whole. */
export const WHOLE_FILE_BYTES = 16 * 1024;
/** A larger file is asked for this many windows… */
export const SAMPLE_COUNT = 16;
/** …of this many bytes: its first and last, and the others at random places. */
export const SAMPLE_BYTES = 1024;
/** A challenge not answered within this time is forgotten. */
export const CHALLENGE_TTL_MS = 60_000;
/** At most this many challenges wait for an answer; the oldest is forgotten first. */
export const MAX_PENDING = 8;

/** The most files one drop may claim. */
export const MAX_DROPPED = 1000;

interface Pending {
  paths: string[];
  ranges: [number, number][][];
  /** whether each claim named a non-empty regular file of the claimed size */
  provable: boolean[];
  expires: number;
}

export interface DropVerifier {
  /** checks the claims and answers which bytes of each file to send */
  challenge(claims: unknown): Promise<DropChallenge>;
  /** the claimed paths whose answers match the files on disk; each challenge answers once */
  verify(id: unknown, answers: unknown): Promise<string[]>;
}

/** The byte ranges ([offset, length]) asked of a file of `size` bytes. */
export function pickRanges(size: number, random: (max: number) => number = randomInt): [number, number][] {
  if (size <= WHOLE_FILE_BYTES) return [[0, size]];
  const ranges: [number, number][] = [
    [0, SAMPLE_BYTES],
    [size - SAMPLE_BYTES, SAMPLE_BYTES],
  ];
  while (ranges.length < SAMPLE_COUNT) ranges.push([random(size - SAMPLE_BYTES + 1), SAMPLE_BYTES]);
  return ranges.sort((a, b) => a[0] - b[0]);
}

export function checkDroppedPaths(paths: unknown): string[] {
  if (!Array.isArray(paths)) throw new InvalidArgumentError('paths must be an array of strings');
  if (paths.length > MAX_DROPPED) throw new InvalidArgumentError(`at most ${MAX_DROPPED} paths at once`);
  for (const p of paths) {
    if (typeof p !== 'string') throw new InvalidArgumentError('paths must be an array of strings');
    if (!isAbsolute(p) || p.includes('\0') || p.length > 4096) {
      throw new InvalidArgumentError('paths must be absolute file paths');
    }
  }
  return paths as string[];
}

function checkClaims(claims: unknown): DropClaim[] {
  if (!Array.isArray(claims)) throw new InvalidArgumentError('dropped paths must be an array of { path, size }');
  if (claims.length > MAX_DROPPED) throw new InvalidArgumentError(`at most ${MAX_DROPPED} paths at once`);
  const paths = checkDroppedPaths(claims.map((c: unknown) => (c as { path?: unknown } | null)?.path));
  return claims.map((c: { size?: unknown }, i) => {
    // (2^47 bytes: more than any disk holds, and within what randomInt can pick from)
    if (typeof c.size !== 'number' || !Number.isSafeInteger(c.size) || c.size < 0 || c.size > 2 ** 47) {
      throw new InvalidArgumentError('each dropped file needs its size in bytes');
    }
    return { path: paths[i]!, size: c.size };
  });
}

async function readRange(path: string, offset: number, length: number): Promise<Uint8Array | null> {
  const handle = await open(path, 'r').catch(() => null);
  if (handle === null) return null;
  try {
    const out = new Uint8Array(length);
    let got = 0;
    while (got < length) {
      const { bytesRead } = await handle.read(out, got, length - got, offset + got);
      if (bytesRead === 0) return null; // the file shrank: it is not what was dropped
      got += bytesRead;
    }
    return out;
  } finally {
    await handle.close();
  }
}

function sameBytes(a: unknown, b: Uint8Array): boolean {
  if (!(a instanceof Uint8Array) || a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < b.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

async function proven(path: string, ranges: readonly (readonly [number, number])[], answer: unknown): Promise<boolean> {
  if (!Array.isArray(answer) || answer.length !== ranges.length) return false;
  for (const [i, [offset, length]] of ranges.entries()) {
    const want = await readRange(path, offset, length);
    if (want === null || !sameBytes(answer[i], want)) return false;
  }
  return true;
}

export function createDropVerifier(now: () => number = Date.now): DropVerifier {
  const pending = new Map<string, Pending>();

  function forgetExpired(): void {
    for (const [id, p] of pending) if (p.expires <= now()) pending.delete(id);
  }

  return {
    async challenge(raw) {
      const claims = checkClaims(raw);
      const provable: boolean[] = [];
      for (const claim of claims) {
        const st = await stat(claim.path).catch(() => null);
        // Only non-empty regular files of the size the dropped File has: a folder or an empty
        // file holds nothing the renderer could prove it read.
        provable.push(st !== null && st.isFile() && st.size === claim.size && st.size > 0);
      }
      // Ranges for every claim, refused or not, picked from the claimed size alone: the answer
      // says nothing of whether a path exists or how large it is.
      const ranges = claims.map((c) => pickRanges(c.size));
      forgetExpired();
      while (pending.size >= MAX_PENDING) pending.delete(pending.keys().next().value!);
      const id = randomBytes(18).toString('base64url');
      pending.set(id, { paths: claims.map((c) => c.path), ranges, provable, expires: now() + CHALLENGE_TTL_MS });
      return { id, ranges: ranges.map((r) => r.map(([o, l]) => [o, l] as [number, number])) };
    },

    async verify(id, answers) {
      forgetExpired();
      const p = typeof id === 'string' ? pending.get(id) : undefined;
      if (p === undefined) throw new InvalidArgumentError('unknown or expired drop challenge');
      pending.delete(id as string);
      if (!Array.isArray(answers) || answers.length !== p.paths.length) {
        throw new InvalidArgumentError('one answer per dropped file');
      }
      const out: string[] = [];
      for (const [i, path] of p.paths.entries()) {
        if (p.provable[i] && (await proven(path, p.ranges[i]!, answers[i]))) out.push(path);
      }
      return out;
    },
  };
}
