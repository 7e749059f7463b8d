import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { iterate } from '../../shared/import/source';
import { fileSource } from './node-source';

const dir = mkdtempSync(join(tmpdir(), 'flamelens-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MiB = 1 << 20;

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
  for (const size of [0, 1, MiB - 1, MiB, 3 * MiB, 9 * MiB + 12345]) {
    it(`reads ${size} bytes whole and in order, pieces given back or not`, async () => {
      const path = join(dir, `f${size}`);
      const want = content(size);
      writeFileSync(path, want);
      for (const recycle of [false, true]) {
        const { bytes, pieces } = await readAll(path, recycle);
        expect(bytes.length).toBe(size);
        expect(Buffer.compare(bytes, want)).toBe(0);
        expect(pieces).toBe(Math.ceil(size / MiB));
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
    expect(pieces).toBe(8);
    // four pieces are read ahead: a few buffers serve all eight
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
