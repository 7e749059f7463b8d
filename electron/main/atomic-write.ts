/**
 * Writes a file so that readers see either the old content or the new one, never half of it: the
 * data goes to a temporary file in the same folder (so that the rename cannot cross file
 * systems), is flushed, then renamed over the target. On any failure the temporary file is
 * removed and the previous file is left as it was. Electron-free.
 */
import { randomBytes } from 'node:crypto';
import { type FileHandle, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export async function writeFileAtomic(path: string, data: Uint8Array | string): Promise<void> {
  const file = await AtomicFile.create(path);
  try {
    await file.write(data);
  } catch (e) {
    await file.abort();
    throw e;
  }
  await file.commit();
}

/**
 * A file written in pieces that appears at `path` only when committed: until then it is a
 * temporary file beside it, which `abort` (or a failed commit) removes.
 */
export class AtomicFile {
  private constructor(
    readonly path: string,
    private readonly temp: string,
    private readonly handle: FileHandle,
  ) {}

  static async create(path: string): Promise<AtomicFile> {
    const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    // Keep the permissions of the file being replaced (a user may have made it private).
    const mode = await stat(path).then(
      (s) => s.mode & 0o777,
      () => 0o644,
    );
    return new AtomicFile(path, temp, await open(temp, 'wx', mode));
  }

  async write(data: Uint8Array | string): Promise<void> {
    await this.handle.writeFile(data);
  }

  async commit(): Promise<void> {
    let written = false;
    try {
      await this.handle.sync();
      await this.handle.close();
      await rename(this.temp, this.path);
      written = true;
    } finally {
      if (!written) await this.abort();
    }
  }

  async abort(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await unlink(this.temp).catch(() => undefined);
  }
}
