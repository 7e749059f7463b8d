import { describe, expect, it, vi } from 'vitest';
import { CHANNELS, type FlamelensApi } from '../../shared/ipc/contract';

const bridge = vi.hoisted(() => ({
  exposed: new Map<string, unknown>(),
  invoke: vi.fn(async (..._args: unknown[]) => 'result' as unknown),
  listeners: new Map<string, Set<(...args: unknown[]) => void>>(),
}));

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => bridge.exposed.set(key, api) },
  ipcRenderer: {
    invoke: bridge.invoke,
    on: (channel: string, l: (...args: unknown[]) => void) => {
      if (!bridge.listeners.has(channel)) bridge.listeners.set(channel, new Set());
      bridge.listeners.get(channel)!.add(l);
    },
    removeListener: (channel: string, l: (...args: unknown[]) => void) => bridge.listeners.get(channel)?.delete(l),
  },
  webUtils: {
    // Files from disk have a path; files a script made with `new File()` get ''.
    getPathForFile: (f: { diskPath?: string }) => f.diskPath ?? '',
  },
}));

await import('./index');
const api = bridge.exposed.get('flamelens') as FlamelensApi;
const emit = (channel: string, value: unknown) => {
  for (const l of bridge.listeners.get(channel) ?? []) l({ sender: 'ipc-event' }, value);
};

describe('preload bridge', () => {
  it('exposes exactly one named function per channel, and nothing generic', () => {
    expect([...bridge.exposed.keys()]).toEqual(['flamelens']);
    expect(Object.keys(api).sort()).toEqual([
      'initialItems',
      'onMenuCommand',
      'onOpenItems',
      'openDialog',
      'openRecent',
      'readFileChunk',
      'recentList',
      'recordNext',
      'recordStart',
      'recordStop',
      'registerDropped',
      'saveBegin',
      'saveEnd',
      'saveFile',
      'saveWrite',
    ]);
    for (const value of Object.values(api)) expect(typeof value).toBe('function');
    expect(api).not.toHaveProperty('invoke');
    expect(api).not.toHaveProperty('send');
    expect(api).not.toHaveProperty('ipcRenderer');
  });

  it('invokes each channel with its arguments', async () => {
    await api.openDialog();
    expect(bridge.invoke).toHaveBeenLastCalledWith(CHANNELS.openDialog, 'files');
    await api.openDialog('folder');
    expect(bridge.invoke).toHaveBeenLastCalledWith(CHANNELS.openDialog, 'folder');
    await api.initialItems();
    expect(bridge.invoke).toHaveBeenLastCalledWith(CHANNELS.initialItems);
    await api.readFileChunk('tok', 10, 20);
    expect(bridge.invoke).toHaveBeenLastCalledWith(CHANNELS.readFileChunk, 'tok', 10, 20);
    await api.recentList();
    expect(bridge.invoke).toHaveBeenLastCalledWith(CHANNELS.recentList);
    await api.openRecent('/a');
    expect(bridge.invoke).toHaveBeenLastCalledWith(CHANNELS.openRecent, '/a');
    const req = { defaultName: 'x.png', filters: [], data: 'd' };
    await api.saveFile(req);
    expect(bridge.invoke).toHaveBeenLastCalledWith(CHANNELS.saveFile, req);
  });

  it('claims only files really dropped from disk, and answers main’s challenge with their bytes', async () => {
    bridge.invoke.mockReset();
    const bytes = new TextEncoder().encode('{"nodes":[1,2,3]}');
    const fromDisk = Object.assign(new Blob([bytes]), { name: 'a.cpuprofile', diskPath: '/home/me/a.cpuprofile' });
    const forged = { name: '/etc/passwd', size: 1 };
    bridge.invoke.mockImplementation(async (channel: unknown) =>
      channel === CHANNELS.dropChallenge
        ? {
            id: 'c1',
            ranges: [
              [
                [0, 4],
                [10, 3],
              ],
            ],
          }
        : undefined,
    );
    // The paths come back to name the runs: '' where the file is not from disk.
    expect(await api.registerDropped([fromDisk, forged])).toEqual(['/home/me/a.cpuprofile', '']);
    expect(bridge.invoke.mock.calls).toEqual([
      [CHANNELS.dropChallenge, [{ path: '/home/me/a.cpuprofile', size: bytes.byteLength }]],
      [CHANNELS.registerDropped, 'c1', [[bytes.slice(0, 4), bytes.slice(10, 13)]]],
    ]);
    bridge.invoke.mockClear();
    expect(await api.registerDropped([forged])).toEqual(['']);
    expect(bridge.invoke).not.toHaveBeenCalled();
  });

  it('answers null for a file that cannot be read', async () => {
    bridge.invoke.mockReset();
    const folder = {
      name: '77.0x',
      size: 4096,
      diskPath: '/home/me/77.0x',
      slice: () => ({ arrayBuffer: () => Promise.reject(new Error('NotFoundError')) }),
    };
    const unreadable = {
      name: 'b.cpuprofile',
      size: 9,
      diskPath: '/home/me/b.cpuprofile',
      slice: () => ({ arrayBuffer: () => Promise.reject(new Error('NotReadableError')) }),
    };
    bridge.invoke.mockImplementation(async (channel: unknown) =>
      channel === CHANNELS.dropChallenge ? { id: 'c2', ranges: [[[0, 4096]], [[0, 9]]] } : undefined,
    );
    await api.registerDropped([folder, unreadable]);
    expect(bridge.invoke).toHaveBeenLastCalledWith(CHANNELS.registerDropped, 'c2', [null, null]);
    bridge.invoke.mockReset();
    bridge.invoke.mockImplementation(async () => 'result');
  });

  it('passes menu commands without the IPC event, ignores unknown ones, and unsubscribes', () => {
    const seen: unknown[] = [];
    const off = api.onMenuCommand((cmd) => seen.push(cmd));
    emit(CHANNELS.menuCommand, 'find');
    emit(CHANNELS.menuCommand, 'rm -rf');
    off();
    emit(CHANNELS.menuCommand, 'about');
    expect(seen).toEqual(['find']);
  });

  it('passes opened items', () => {
    const seen: unknown[] = [];
    const off = api.onOpenItems((items) => seen.push(items));
    emit(CHANNELS.openItems, [{ kind: 'file', file: { token: 't', name: 'n', path: '/n', size: 1 } }]);
    emit(CHANNELS.openItems, 'not a list');
    off();
    expect(seen).toHaveLength(1);
  });
});
