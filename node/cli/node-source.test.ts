import { mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ImportError } from '../../shared/import/errors';
import { importProfile } from '../../shared/import/import-profile';
import { type ByteSource, bytesSource, iterate, openSource } from '../../shared/import/io/source';
import { collapse } from '../../shared/model/collapse';
import { fileSource } from './node-source';

const dir = mkdtempSync(join(tmpdir(), 'flamelens-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MiB = 1 << 20;
const HEAD = 64 * 1024;

/** Bytes that differ from piece to piece and within one, so that a piece read twice or out of order shows. */
function content(size: number): Uint8Array {
  const b = new Uint8Array(size);
  for (let i = 0; i < size; i++) b[i] = (Math.imul(i, 2654435761) >>> 24) ^ (i >>> 20);
  return b;
}

/** Reads the file as an importer does, copying each piece and (maybe) giving it back. */
async function readAll(path: string, recycle: boolean): Promise<{ bytes: Uint8Array; pieces: number }> {
  const src = fileSource(path);
  const parts: Uint8Array[] = [];
  for await (const chunk of iterate(src.stream())) {
    parts.push(chunk.slice());
    if (recycle) src.recycle!(chunk);
  }
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    bytes.set(p, o);
    o += p.length;
  }
  return { bytes, pieces: parts.length };
}

describe('file source', () => {
  for (const size of [0, 1, HEAD, HEAD + 1, MiB - 1, MiB, 3 * MiB, 9 * MiB + 12345]) {
    it(`reads ${size} bytes whole and in order, pieces given back or not`, async () => {
      const path = join(dir, `f${size}`);
      const want = content(size);
      writeFileSync(path, want);
      for (const recycle of [false, true]) {
        const { bytes, pieces } = await readAll(path, recycle);
        expect(bytes.length).toBe(size);
        expect(Buffer.compare(bytes, want)).toBe(0);
        // a head of 64 KiB, then pieces of 1 MiB
        expect(pieces).toBe(size <= HEAD ? Math.ceil(size / HEAD) : 1 + Math.ceil((size - HEAD) / MiB));
      }
    });
  }

  it('reads into memory given back, and ignores what is not its own', async () => {
    const path = join(dir, 'reuse');
    writeFileSync(path, content(8 * MiB));
    const src = fileSource(path);
    const seen = new Set<ArrayBufferLike>();
    let pieces = 0;
    for await (const chunk of iterate(src.stream())) {
      seen.add(chunk.buffer);
      pieces++;
      src.recycle!(chunk);
      src.recycle!(new Uint8Array(16));
    }
    expect(pieces).toBe(9);
    // four pieces are read ahead: a few buffers serve all nine
    expect(seen.size).toBeLessThan(8);
  });

  it('never reads into a piece that was not given back', async () => {
    const path = join(dir, 'kept');
    const want = content(6 * MiB);
    writeFileSync(path, want);
    const src = fileSource(path);
    const kept: Uint8Array[] = [];
    for await (const chunk of iterate(src.stream())) kept.push(chunk);
    expect(Buffer.compare(Buffer.concat(kept), want)).toBe(0);
  });
});

describe('file source read synchronously', () => {
  it('reads any range, and lets go of the file', () => {
    const path = join(dir, 'sync');
    const want = content(3 * MiB + 5);
    writeFileSync(path, want);
    const reader = fileSource(path).syncReader!();
    const into = new Uint8Array(MiB);
    expect(reader.read(into, 2 * MiB + 7)).toBe(MiB - 2);
    expect(Buffer.compare(into.subarray(0, MiB - 2), want.subarray(2 * MiB + 7))).toBe(0);
    expect(reader.read(into, 3 * MiB + 5)).toBe(0);
    reader.close();
    reader.close();
  });

  it('imports text formats read straight into the scanner as through the stream', async () => {
    const perf = gunzipSync(readFileSync(new URL('../../fixtures/samples/ddtrace/perf.F999.script.txt.gz', import.meta.url)));
    const folded = `${collapse(await importProfile(bytesSource('x.perf', perf))).join('\n')}\n`;
    for (const [name, bytes] of [
      ['capture.perf', perf],
      ['capture.folded', Buffer.from(folded)],
      ['bom.perf', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), perf])],
    ] as const) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      const opened = await openSource(fileSource(path));
      expect(opened.readInto).toBeDefined();
      opened.close!();
      expect(await importProfile(fileSource(path))).toEqual(await importProfile(bytesSource(name, bytes)));
    }
  });

  it('names the file when it cannot be read', async () => {
    const path = join(dir, 'unreadable.perf');
    const perf = gunzipSync(readFileSync(new URL('../../fixtures/samples/ddtrace/perf.F999.script.txt.gz', import.meta.url)));
    writeFileSync(path, perf);
    const src = fileSource(path);
    let closed = 0;
    const failing: ByteSource = {
      ...src,
      syncReader: () => ({
        read: () => {
          throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
        },
        close: () => void closed++,
      }),
    };
    const error = await importProfile(failing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect(String(error)).toMatch(/unreadable\.perf.*could not be read \(EIO: i\/o error, read\)/);
    expect(closed).toBe(1);
  });
});

describe('file source let go', () => {
  /** How many of this process's open files are `path` (Linux: /proc/self/fd). */
  const openCount = (path: string) =>
    readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`) === path;
      } catch {
        return false;
      }
    }).length;
  const closedSoon = async (path: string) => {
    for (let i = 0; i < 100 && openCount(path) > 0; i++) await new Promise((r) => setTimeout(r, 10));
    return openCount(path);
  };

  it.skipIf(process.platform !== 'linux')('however the import ends, the file is closed', async () => {
    const gz = readFileSync(new URL('../../fixtures/samples/ddtrace/perf.F999.script.txt.gz', import.meta.url));
    const perf = gunzipSync(gz);
    const cases: [string, Uint8Array, boolean][] = [
      // read to the end, synchronously
      ['ok.perf', perf, true],
      // no format: the head is all that is read
      ['unknown.bin', Buffer.alloc(300_000, 1), false],
      // gzip data cut off halfway, read through the stream
      ['cut.perf.gz', gz.subarray(0, gz.length >> 1), false],
    ];
    for (const [name, bytes, ok] of cases) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      const result = await importProfile(fileSource(path)).then(
        () => true,
        () => false,
      );
      expect(result).toBe(ok);
      expect(await closedSoon(path)).toBe(0);
    }
  });
});
