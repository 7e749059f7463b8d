/** Files and folders on disk as import sources, streamed (never read whole). */
import { createReadStream, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import type { ByteSource, ImportSource } from '../../shared/import/source';

export function fileSource(path: string): ByteSource {
  const size = statSync(path).size;
  return {
    name: basename(path),
    size,
    stream: () => Readable.toWeb(createReadStream(path, { highWaterMark: 1 << 20 })) as unknown as ReadableStream<Uint8Array>,
  };
}

/** A path as a source: a regular file, or a folder's regular files (a `<pid>.0x` directory). */
export function pathSource(path: string): ImportSource {
  const st = statSync(path);
  if (!st.isDirectory()) return fileSource(path);
  const files = readdirSync(path)
    .map((f) => join(path, f))
    .filter((f) => statSync(f).isFile())
    .map(fileSource);
  return { name: basename(path), files };
}
