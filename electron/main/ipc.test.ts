import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHANNELS, type ChosenItem, type DropChallenge, MAX_CHUNK } from '../../shared/ipc/contract';

// A failing disk write cannot be provoked for real (tests run as root): rename can be made to fail.
const fail = vi.hoisted(() => ({ rename: false }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    rename: async (...args: Parameters<typeof real.rename>) => {
      if (fail.rename) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      return real.rename(...args);
    },
  };
});

const { createFileRegistry } = await import('../../node/host/files');
const { createRecentList } = await import('./recent');
const { createHandlers, registerIpcHandlers, safeFileName } = await import('./ipc');
const { isTrustedSender } = await import('./security');

let dir: string;
let deps: Parameters<typeof createHandlers>[0];
let openPaths: string[];
let savePath: string | null;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flamelens-ipc-'));
  writeFileSync(join(dir, 'a.cpuprofile'), '{"nodes":[]}');
  mkdirSync(join(dir, '77.0x'));
  writeFileSync(join(dir, '77.0x', 'meta.json'), '{}');
  fail.rename = false;
  openPaths = [];
  savePath = null;
  const recent = createRecentList(join(dir, 'recent.json'));
  await recent.load();
  deps = {
    registry: createFileRegistry(),
    recent,
    initialItems: async () => [],
    showOpenDialog: vi.fn(async () => openPaths),
    showSaveDialog: vi.fn(async () => savePath),
    saveDirectory: () => dir,
    reportErrors: vi.fn(),
  };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('sender check', () => {
  const rendererUrl = 'flamelens://app/index.html';
  const mainFrame = { url: rendererUrl };
  const win = { isDestroyed: () => false, webContents: { mainFrame } };

  function install() {
    const registered = new Map<string, (event: { senderFrame: unknown }, ...args: unknown[]) => unknown>();
    registerIpcHandlers({ handle: (channel, listener) => registered.set(channel, listener) }, createHandlers(deps), (event) =>
      isTrustedSender(event.senderFrame as { url: string } | null, win, rendererUrl),
    );
    return registered;
  }

  it('registers one handler per invoke channel of the contract', () => {
    const registered = install();
    const { menuCommand: _m, openItems: _o, ...invoke } = CHANNELS;
    expect([...registered.keys()].sort()).toEqual(Object.values(invoke).sort());
  });

  it('answers our window’s top frame and rejects foreign frames', async () => {
    const registered = install();
    const recentList = registered.get(CHANNELS.recentList)!;
    await expect(recentList({ senderFrame: mainFrame })).resolves.toEqual([]);
    for (const senderFrame of [null, { url: rendererUrl }, { url: 'https://evil.example/' }]) {
      for (const listener of registered.values()) {
        expect(() => listener({ senderFrame })).toThrow(/refused: the sender is not the Flamelens window/);
      }
    }
    expect(deps.showOpenDialog).not.toHaveBeenCalled();
  });
});

describe('openDialog', () => {
  it('registers the chosen files and folders and remembers them', async () => {
    const h = createHandlers(deps);
    openPaths = [join(dir, 'a.cpuprofile'), join(dir, '77.0x')];
    const items = (await h.openDialog('files')) as ChosenItem[];
    expect(items.map((i) => i.kind)).toEqual(['file', 'folder']);
    expect(deps.recent.list()).toEqual(openPaths);
    await h.openDialog('folder');
    expect(deps.showOpenDialog).toHaveBeenLastCalledWith('folder');
    await h.openDialog();
    expect(deps.showOpenDialog).toHaveBeenLastCalledWith('files');
  });

  it('returns [] when cancelled and rejects unknown kinds', async () => {
    const h = createHandlers(deps);
    await expect(h.openDialog('files')).resolves.toEqual([]);
    await expect(h.openDialog('everything')).rejects.toThrow(/kind/);
  });
});

describe('readFileChunk', () => {
  it('reads only tokens main issued, with validated ranges', async () => {
    const h = createHandlers(deps);
    openPaths = [join(dir, 'a.cpuprofile')];
    const [item] = (await h.openDialog('files')) as ChosenItem[];
    const token = item!.kind === 'file' ? item!.file.token : '';
    expect(Buffer.from((await h.readFileChunk(token, 2, 5)) as Uint8Array).toString()).toBe('nodes');
    expect(((await h.readFileChunk(token, 0, MAX_CHUNK * 10)) as Uint8Array).byteLength).toBe(12);
    await expect(h.readFileChunk('forged-token', 0, 10)).rejects.toThrow(/unknown file token/);
    await expect(h.readFileChunk(join(dir, 'a.cpuprofile'), 0, 10)).rejects.toThrow(/unknown file token/);
    await expect(h.readFileChunk(token, -1, 10)).rejects.toThrow(/offset/);
    await expect(h.readFileChunk(token, Number.NaN, 10)).rejects.toThrow(/offset/);
    await expect(h.readFileChunk(token, Number.MAX_SAFE_INTEGER + 2, 10)).rejects.toThrow(/offset/);
    await expect(h.readFileChunk(token, 0, '10')).rejects.toThrow(/length/);
  });
});

describe('registerDropped', () => {
  /** The preload's side, done honestly: the bytes of each file at the ranges main asked for. */
  async function drop(h: ReturnType<typeof createHandlers>, paths: string[], sizes = paths.map((p) => statSync(p).size)) {
    const challenge = (await h.dropChallenge(paths.map((path, i) => ({ path, size: sizes[i] })))) as DropChallenge;
    const answers = challenge.ranges.map((ranges, i) => {
      try {
        return ranges.map(([o, l]) => new Uint8Array(readFileSync(paths[i]!).subarray(o, o + l)));
      } catch {
        return null; // a folder or a vanished file cannot be read
      }
    });
    await h.registerDropped(challenge.id, answers);
  }

  it('adds to the recent list the dropped files whose bytes the preload sent back', async () => {
    const h = createHandlers(deps);
    await drop(h, [join(dir, 'a.cpuprofile')]);
    expect(deps.recent.list()).toEqual([join(dir, 'a.cpuprofile')]);
  });

  it('refuses paths it did not see proven: bare path lists, forged challenges, files the renderer cannot read', async () => {
    const h = createHandlers(deps);
    writeFileSync(join(dir, 'secret.key'), 'private');
    // the old shape of the call: a list of paths main used to add as they were
    await expect(h.registerDropped([join(dir, 'secret.key')])).rejects.toThrow(/drop challenge/);
    await expect(h.registerDropped('forged-id', [[new TextEncoder().encode('private')]])).rejects.toThrow(/drop challenge/);
    // a real challenge, answered without the file's bytes
    const challenge = (await h.dropChallenge([{ path: join(dir, 'secret.key'), size: 7 }])) as DropChallenge;
    await h.registerDropped(challenge.id, [[new Uint8Array(7)]]);
    expect(deps.recent.list()).toEqual([]);
    await expect(h.openRecent(join(dir, 'secret.key'))).rejects.toThrow(/recent list/);
  });

  it('leaves out what vanished and folders, which cannot be proven', async () => {
    const h = createHandlers(deps);
    await drop(h, [join(dir, 'a.cpuprofile'), join(dir, 'gone.cpuprofile'), join(dir, '77.0x')], [12, 10, 4096]);
    expect(deps.recent.list()).toEqual([join(dir, 'a.cpuprofile')]);
  });

  it.each([
    ['a string', '/x'],
    ['non-strings', [42]],
    ['bare paths', ['/x']],
    ['relative paths', [{ path: 'x.cpuprofile', size: 1 }]],
    ['NUL bytes', [{ path: '/x\0y', size: 1 }]],
    ['too many paths', Array.from({ length: 1001 }, (_, i) => ({ path: `/f${i}`, size: 1 }))],
  ])('rejects %s', async (_name, arg) => {
    await expect(createHandlers(deps).dropChallenge(arg)).rejects.toThrow(/paths/);
    expect(deps.recent.list()).toEqual([]);
  });
});

describe('recentList / openRecent', () => {
  it('re-opens only paths on the list', async () => {
    const h = createHandlers(deps);
    await deps.recent.add([join(dir, 'a.cpuprofile')]);
    expect(await h.recentList()).toEqual([join(dir, 'a.cpuprofile')]);
    const items = (await h.openRecent(join(dir, 'a.cpuprofile'))) as ChosenItem[];
    expect(items[0]!.kind).toBe('file');
    await expect(h.openRecent('/etc/passwd')).rejects.toThrow(/recent list/);
    await expect(h.openRecent(42)).rejects.toThrow(/recent list/);
  });

  it('drops a recent path that no longer exists', async () => {
    const h = createHandlers(deps);
    const gone = join(dir, 'gone.cpuprofile');
    await deps.recent.add([gone]);
    await expect(h.openRecent(gone)).rejects.toThrow(`cannot open ${gone}: no such file or directory`);
    expect(deps.recent.list()).toEqual([]);
  });
});

describe('saveFile', () => {
  const req = (data: unknown, defaultName = 'diff.svg') => ({ defaultName, filters: [{ name: 'SVG image', extensions: ['svg'] }], data });

  it('returns null when cancelled', async () => {
    await expect(createHandlers(deps).saveFile(req('<svg/>'))).resolves.toBeNull();
    expect(deps.showSaveDialog).toHaveBeenCalledWith(join(dir, 'diff.svg'), [{ name: 'SVG image', extensions: ['svg'] }]);
  });

  it('writes text and bytes atomically to the chosen path', async () => {
    const h = createHandlers(deps);
    savePath = join(dir, 'out.svg');
    await expect(h.saveFile(req('<svg/>'))).resolves.toBe(savePath);
    expect(readFileSync(savePath, 'utf8')).toBe('<svg/>');
    await h.saveFile(req(new Uint8Array([137, 80, 78, 71])));
    expect([...readFileSync(savePath)]).toEqual([137, 80, 78, 71]);
  });

  it('puts a saved workspace on the recent list, and not an exported picture', async () => {
    const h = createHandlers(deps);
    savePath = join(dir, 'out.svg');
    await h.saveFile(req('<svg/>'));
    savePath = join(dir, 'team.flamelens');
    await h.saveFile(req(new Uint8Array([0x1f, 0x8b]), 'team.flamelens'));
    expect(deps.recent.list()).toEqual([savePath]);
  });

  it('reports a failed write and leaves the previous file as it was', async () => {
    const h = createHandlers(deps);
    savePath = join(dir, 'team.flamelens');
    writeFileSync(savePath, 'previous workspace');
    fail.rename = true;
    await expect(h.saveFile(req('new workspace'))).rejects.toThrow(`could not save ${savePath}: ENOSPC`);
    expect(readFileSync(savePath, 'utf8')).toBe('previous workspace');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it.each([
    ['no request', undefined],
    ['no data', { defaultName: 'x', filters: [] }],
    ['a number as data', { defaultName: 'x', filters: [], data: 5 }],
    ['bad filters', { defaultName: 'x', filters: [{ name: 'x', extensions: ['../../etc'] }], data: '' }],
    ['filters not an array', { defaultName: 'x', filters: 'png', data: '' }],
  ])('rejects %s before showing a dialog', async (_name, r) => {
    await expect(createHandlers(deps).saveFile(r)).rejects.toThrow();
    expect(deps.showSaveDialog).not.toHaveBeenCalled();
  });

  it('saves a file of any size in pieces, and it appears only when the last piece is in', async () => {
    const h = createHandlers(deps);
    const target = { defaultName: 'team.flamelens', filters: [{ name: 'Flamelens workspace', extensions: ['flamelens'] }] };
    await expect(h.saveBegin(target)).resolves.toBeNull(); // cancelled
    savePath = join(dir, 'team.flamelens');
    const id = (await h.saveBegin(target)) as string;
    await h.saveWrite(id, new Uint8Array([0x1f, 0x8b]));
    await h.saveWrite(id, new Uint8Array(MAX_CHUNK).fill(7));
    expect(readdirSync(dir)).not.toContain('team.flamelens');
    await expect(h.saveWrite(id, new Uint8Array(MAX_CHUNK + 1))).rejects.toThrow(/at most/);
    await expect(h.saveWrite(id, 'text')).rejects.toThrow(/Uint8Array/);
    await expect(h.saveEnd(id, true)).resolves.toBe(savePath);
    const bytes = readFileSync(savePath);
    expect(bytes.length).toBe(MAX_CHUNK + 2);
    expect([bytes[0], bytes[1], bytes[2], bytes[bytes.length - 1]]).toEqual([0x1f, 0x8b, 7, 7]);
    expect(deps.recent.list()).toEqual([savePath]);
    // the id is spent
    await expect(h.saveWrite(id, new Uint8Array(1))).rejects.toThrow(/no file is being saved/);
    await expect(h.saveEnd('forged', true)).rejects.toThrow(/no file is being saved/);
  });

  it('drops a save in pieces that is given up, or whose file cannot be put in place, and keeps the previous file', async () => {
    const h = createHandlers(deps);
    savePath = join(dir, 'team.flamelens');
    writeFileSync(savePath, 'previous workspace');
    const target = { defaultName: 'team.flamelens', filters: [] };
    const id = (await h.saveBegin(target)) as string;
    await h.saveWrite(id, new Uint8Array([1, 2, 3]));
    await expect(h.saveEnd(id, false)).resolves.toBeNull();
    const again = (await h.saveBegin(target)) as string;
    await h.saveWrite(again, new Uint8Array([1, 2, 3]));
    fail.rename = true;
    await expect(h.saveEnd(again, true)).rejects.toThrow(`could not save ${savePath}: ENOSPC`);
    expect(readFileSync(savePath, 'utf8')).toBe('previous workspace');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('reduces the suggested name to a bare file name', () => {
    expect(safeFileName('../../.bashrc')).toBe('.bashrc');
    expect(safeFileName('C:\\Users\\x\\diff.png')).toBe('diff.png');
    expect(safeFileName('a\u0000b?.svg')).toBe('a_b_.svg');
    expect(safeFileName('..')).toBe('flamelens-export');
    expect(safeFileName(undefined)).toBe('flamelens-export');
  });
});

describe('recordings', () => {
  it('runs the commands the window typed, reports progress and opens the workspace like a chosen file', async () => {
    const { writeRecordServer } = await import('../../test/support/record-server');
    const server = writeRecordServer(dir);
    const h = createHandlers(deps);
    await expect(h.recordStart({ out: 'relative', variants: [] })).rejects.toThrow('the folder must be an absolute path');
    const id = (await h.recordStart({
      out: join(dir, 'study'),
      variants: [
        { name: 'baseline', command: `node ${server}` },
        { name: 'agent', command: `node ${server} --agent` },
      ],
      requests: 200,
      connections: 2,
      repeat: 1,
      capture: ['cpu'],
    })) as string;
    const events: Record<string, unknown>[] = [];
    while (!events.some((e) => 'done' in e || 'error' in e)) events.push(...((await h.recordNext(id)) as Record<string, unknown>[]));
    expect(events.filter((e) => 'progress' in e).map((e) => e.progress)).toContain('profiled run: agent');
    const done = events.at(-1)!.done as { code: number; workspace: ChosenItem };
    expect(done.code).toBe(0);
    if (done.workspace.kind !== 'file') throw new Error('expected a file');
    expect(done.workspace.file.path).toBe(join(dir, 'study', 'comparison.flamelens'));
    // readable through its token, and on the recent list as a file the person opened
    expect((await h.readFileChunk(done.workspace.file.token, 0, 2)) as Uint8Array).toEqual(new Uint8Array([0x1f, 0x8b]));
    expect(await h.recentList()).toContain(join(dir, 'study', 'comparison.flamelens'));
  }, 60_000);
});
