/** Test helpers: fixture files from disk as import sources. Node-only; used by tests alone. */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ByteSource, type FolderSource, bytesSource } from '../../shared/import/io/source';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const FIXTURES = join(ROOT, 'fixtures');
export const CORPUS = join(FIXTURES, 'corpus');
export const SAMPLES = join(FIXTURES, 'samples');

export function fixturePath(...parts: string[]): string {
  return join(FIXTURES, ...parts);
}

/** A fixture as a source; `name` '' hides the file name from format detection. */
export function fileSource(path: string, name = basename(path), chunkSize = 64 * 1024): ByteSource {
  return bytesSource(name, new Uint8Array(readFileSync(path)), chunkSize);
}

export function folderSource(path: string): FolderSource {
  const files = readdirSync(path)
    .filter((f) => statSync(join(path, f)).isFile())
    .map((f) => fileSource(join(path, f)));
  return { name: basename(path), files };
}

export function readText(path: string): string {
  return readFileSync(path, 'utf8');
}

/**
 * `bytes` as a source in pieces of `size` that records each piece given back (`recycle`) and
 * scribbles over it at once, as memory read into again would be: an importer that still reads a
 * piece it gave back reads spaces.
 */
export function scribblingSource(name: string, bytes: Uint8Array, size: number): { source: ByteSource; given: Set<Uint8Array> } {
  const given = new Set<Uint8Array>();
  const source: ByteSource = {
    name,
    size: bytes.length,
    stream: () => {
      let at = 0;
      return new ReadableStream<Uint8Array>({
        pull(c) {
          if (at >= bytes.length) return c.close();
          c.enqueue(bytes.slice(at, (at += size)));
        },
      });
    },
    recycle: (chunk) => {
      given.add(chunk);
      chunk.fill(0x20);
    },
  };
  return { source, given };
}
