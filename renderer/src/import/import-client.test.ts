import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FromWorker, ToWorker } from './protocol';

/** What the window writes of a stored profile after the worker (../workspace/profile-store). */
const finishProfileWrite = vi.hoisted(() => vi.fn(async (..._: unknown[]) => undefined));
vi.mock('../workspace/profile-store', () => ({ finishProfileWrite }));

/** A stand-in for the import worker: records what it is sent, and says what the test tells it to. */
class FakeWorker {
  static made: FakeWorker[] = [];
  sent: ToWorker[] = [];
  terminated = false;
  onmessage: ((ev: MessageEvent<FromWorker>) => void) | null = null;
  onerror: ((ev: ErrorEvent) => void) | null = null;
  constructor() {
    FakeWorker.made.push(this);
  }
  postMessage(msg: ToWorker): void {
    this.sent.push(msg);
  }
  terminate(): void {
    this.terminated = true;
  }
  say(msg: FromWorker): void {
    this.onmessage?.({ data: msg } as MessageEvent<FromWorker>);
  }
}

let client: typeof import('./import-client');
const saved = { Worker: globalThis.Worker };

beforeAll(async () => {
  // The host module picks the Electron bridge or the web host from `window` when loaded.
  (globalThis as { window?: unknown }).window ??= {};
  (globalThis as { Worker: unknown }).Worker = FakeWorker;
  client = await import('./import-client');
});

afterAll(() => {
  globalThis.Worker = saved.Worker;
});

const source = { kind: 'token' as const, token: 't', name: 'x.folded', size: 10 };
const profile = { meta: {} } as never;

function listener() {
  const heard: string[] = [];
  return {
    heard,
    cb: {
      progress: (read: number) => heard.push(`progress ${read}`),
      done: () => heard.push('done'),
      failed: (e: { message: string }) => heard.push(`failed ${e.message}`),
      stored: (ok: boolean) => heard.push(`stored ${ok}`),
    },
  };
}

describe('beginImport', () => {
  it('starts the worker at once and keeps what it reports, in order, until someone listens', () => {
    const job = client.beginImport(source, 'page:initial-0');
    const w = FakeWorker.made.at(-1)!;
    expect(w.sent).toEqual([{ type: 'import', source, options: {}, storeKey: 'page:initial-0' }]);
    w.say({ type: 'progress', read: 5, size: 10 });
    w.say({ type: 'done', profile });
    const { heard, cb } = listener();
    job.listen(cb);
    expect(heard).toEqual(['progress 5', 'done']);
    // The worker stays until the profile is stored, and what comes now is heard at once.
    expect(w.terminated).toBe(false);
    w.say({ type: 'stored', ok: true });
    expect(heard).toEqual(['progress 5', 'done', 'stored true']);
    expect(w.terminated).toBe(true);
  });

  it('reports a failure that came before anyone listened', () => {
    const job = client.beginImport(source);
    FakeWorker.made.at(-1)!.say({ type: 'error', error: { file: 'x.folded', message: 'line 3: no count' } });
    const { heard, cb } = listener();
    job.listen(cb);
    expect(heard).toEqual(['failed line 3: no count']);
  });

  it('cancelled before anyone listened, stops the worker and reports nothing', () => {
    const job = client.beginImport(source, 'k');
    const w = FakeWorker.made.at(-1)!;
    w.say({ type: 'progress', read: 1, size: 10 });
    job.cancel();
    expect(w.terminated).toBe(true);
    w.say({ type: 'done', profile });
    const { heard, cb } = listener();
    job.listen(cb);
    expect(heard).toEqual([]);
  });

  it('has one listener', () => {
    const job = client.beginImport(source);
    job.listen(listener().cb);
    expect(() => job.listen(listener().cb)).toThrow(/one listener/);
    job.cancel();
  });

  it('writes the arrays the worker left from the profile it handed over, and only then says the profile is stored', async () => {
    const job = client.beginImport(source, 'page:run-1');
    const w = FakeWorker.made.at(-1)!;
    const { heard, cb } = listener();
    job.listen(cb);
    w.say({ type: 'done', profile });
    const later = [{ group: 'samples', field: 'node', type: 'Int32Array', length: 3 }];
    w.say({ type: 'stored', ok: true, later });
    expect(w.terminated).toBe(true);
    expect(finishProfileWrite).toHaveBeenLastCalledWith('page:run-1', profile, later);
    expect(heard).toEqual(['done']);
    await vi.waitFor(() => expect(heard).toEqual(['done', 'stored true']));
  });

  it('writes the arrays the worker left only once the other imports under way have ended', async () => {
    const first = client.beginImport(source, 'page:run-3');
    const w1 = FakeWorker.made.at(-1)!;
    const other = client.beginImport(source, 'page:run-4');
    const w2 = FakeWorker.made.at(-1)!;
    const a = listener();
    first.listen(a.cb);
    other.listen(listener().cb);
    const later = [{ group: 'samples', field: 'node', type: 'Int32Array', length: 3 }];
    w1.say({ type: 'done', profile });
    w1.say({ type: 'stored', ok: true, later });
    await new Promise((r) => setTimeout(r, 20));
    // the other run still imports: nothing written yet, nor said stored
    expect(finishProfileWrite).not.toHaveBeenCalledWith('page:run-3', profile, later);
    expect(a.heard).toEqual(['done']);
    w2.say({ type: 'error', error: { file: 'x.folded', message: 'bad' } });
    expect(finishProfileWrite).toHaveBeenLastCalledWith('page:run-3', profile, later);
    await vi.waitFor(() => expect(a.heard).toEqual(['done', 'stored true']));
  });

  it('says the profile is not stored when the window cannot write what the worker left', async () => {
    vi.spyOn(console, 'warn').mockImplementationOnce(() => undefined);
    finishProfileWrite.mockRejectedValueOnce(new Error('no room'));
    const job = client.beginImport(source, 'page:run-2');
    const w = FakeWorker.made.at(-1)!;
    const { heard, cb } = listener();
    job.listen(cb);
    w.say({ type: 'done', profile });
    w.say({ type: 'stored', ok: true, later: [{ group: 'samples', field: 'node', type: 'Int32Array', length: 3 }] });
    await vi.waitFor(() => expect(heard).toEqual(['done', 'stored false']));
  });
});
