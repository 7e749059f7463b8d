import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, chmodSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// Disk-full and rename failures cannot be provoked for real (tests run as root), so the two fs
// calls that can fail mid-save are wrapped with a switch.
const fail = vi.hoisted(() => ({ at: null as null | 'write' | 'rename' }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    open: async (...args: Parameters<typeof real.open>) => {
      const handle = await real.open(...args);
      if (fail.at !== 'write') return handle;
      return Object.assign(Object.create(handle) as typeof handle, {
        writeFile: async (data: Uint8Array | string) => {
          if (typeof data === 'string') await handle.write(data.slice(0, 3));
          else await handle.write(data.subarray(0, 3));
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        },
        close: () => handle.close(),
        sync: () => handle.sync(),
      });
    },
    rename: async (...args: Parameters<typeof real.rename>) => {
      if (fail.at === 'rename') throw Object.assign(new Error('EXDEV: rename failed'), { code: 'EXDEV' });
      return real.rename(...args);
    },
  };
});

const { writeFileAtomic } = await import('./atomic-write');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'flamelens-atomic-'));
  fail.at = null;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('writes a new file and replaces an old one', async () => {
    const p = join(dir, 'out.svg');
    await writeFileAtomic(p, '<svg/>');
    expect(readFileSync(p, 'utf8')).toBe('<svg/>');
    await writeFileAtomic(p, new Uint8Array([1, 2, 3]));
    expect([...readFileSync(p)]).toEqual([1, 2, 3]);
    expect(readdirSync(dir)).toEqual(['out.svg']);
  });

  it('keeps the permissions of the file it replaces', async () => {
    const p = join(dir, 'private.flamelens');
    writeFileSync(p, 'old');
    chmodSync(p, 0o600);
    await writeFileAtomic(p, 'new');
    expect(statSync(p).mode & 0o777).toBe(0o600);
  });

  it.each(['write', 'rename'] as const)('leaves the previous file and no temp file when the %s fails', async (step) => {
    const p = join(dir, 'workspace.flamelens');
    writeFileSync(p, 'previous content');
    fail.at = step;
    await expect(writeFileAtomic(p, 'new content that will not land')).rejects.toThrow(step === 'write' ? /ENOSPC/ : /EXDEV/);
    expect(readFileSync(p, 'utf8')).toBe('previous content');
    expect(readdirSync(dir)).toEqual(['workspace.flamelens']);
  });
});
