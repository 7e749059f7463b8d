/**
 * Writes a file so that readers see either the old content or the new one, never half of it: the
 * data goes to a temporary file in the same folder (so that the rename cannot cross file
 * systems), is flushed, then renamed over the target. On any failure the temporary file is
 * removed and the previous file is left as it was. Electron-free.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export async function writeFileAtomic(path: string, data: Uint8Array | string): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  // Keep the permissions of the file being replaced (a user may have made it private).
  const mode = await stat(path).then(
    (s) => s.mode & 0o777,
    () => 0o644,
  );
  let written = false;
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
    written = true;
  } finally {
    if (!written) await unlink(temp).catch(() => undefined);
  }
}
