import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordEvent, RecordRequest } from '../../shared/ipc/contract';
import { decodeWorkspace } from '../../shared/workspace/workspace-file';
import { writeRecordServer } from '../../test/support/record-server';
import { type RunningServer, startServer } from './serve';

let dir: string;
let server: RunningServer;
let testServer: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flamelens-record-route-'));
  mkdirSync(join(dir, 'renderer'));
  writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html><title>Flamelens</title>');
  testServer = writeRecordServer(dir);
  server = await startServer({ items: [], rendererDir: join(dir, 'renderer') });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const request = (over: Partial<RecordRequest> = {}): RecordRequest => ({
  out: join(dir, `study-${Math.random().toString(36).slice(2)}`),
  variants: [
    { name: 'baseline', command: `node ${testServer}` },
    { name: 'agent', command: `node ${testServer} --agent` },
  ],
  requests: 300,
  connections: 4,
  repeat: 1,
  capture: ['cpu'],
  ...over,
});

const post = (body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }, init: RequestInit = {}) =>
  fetch(`${server.url}api/record`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body), ...init });

async function events(res: Response): Promise<RecordEvent[]> {
  return (await res.text())
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as RecordEvent);
}

describe('POST /api/record', () => {
  it('is refused without the secret, with another method, from another origin, or without a JSON body', async () => {
    const bare = new URL(server.url).origin;
    expect(
      (await fetch(`${bare}/api/record`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status,
    ).toBe(403);
    expect((await fetch(`${server.url}api/record`)).status).toBe(405);
    expect((await fetch(`${server.url}api/initial-items`, { method: 'POST' })).status).toBe(405);
    expect((await post(request(), { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post(request(), { 'content-type': 'application/json', origin: 'http://evil.example' })).status).toBe(403);
    expect((await post('{not json')).status).toBe(400);
    expect((await post('x'.repeat(70_000))).status).toBe(413);
    const one = await post(request({ variants: [{ name: 'a', command: 'node x.js' }] }));
    expect(one.status).toBe(400);
    expect(await one.text()).toBe('give between 2 and 16 variants');
    expect((await post(request({ out: 'relative/folder' }))).status).toBe(400);
    expect((await post(request({ capture: ['cpu', 'rm -rf'] }))).status).toBe(400);
  });

  it('records, reporting progress, and offers the workspace it wrote to the app', async () => {
    const origin = new URL(server.url).origin;
    const res = await post(request(), { 'content-type': 'application/json', origin });
    expect(res.status).toBe(200);
    const got = await events(res);
    const progress = got.flatMap((e) => ('progress' in e ? [e.progress] : []));
    expect(progress).toEqual(['run 1/1: baseline', 'run 1/1: agent', 'profiled run: baseline', 'profiled run: agent']);
    const last = got.at(-1)!;
    if (!('done' in last)) throw new Error(`expected done, got ${JSON.stringify(last)}`);
    expect(last.done.code).toBe(0);
    expect(last.done.summary).toMatch(/^baseline: 1 runs, median [\d.]+ s.*\nagent: 1 runs, .*overhead/);
    const item = last.done.workspace;
    if (item?.kind !== 'file') throw new Error('expected the workspace as a file');
    expect(item.file.name).toBe('comparison.flamelens');
    const bytes = new Uint8Array(await (await fetch(`${server.url}api/stream/${encodeURIComponent(item.file.token)}`)).arrayBuffer());
    const ws = await decodeWorkspace(bytes, 'comparison.flamelens');
    expect(ws.runs.map((r) => [r.title, r.measured?.runs])).toEqual([
      ['baseline', 1],
      ['agent', 1],
    ]);
  }, 120_000);

  it('says what is wrong with the settings, and cancels when the request is closed', async () => {
    const bad = await events(
      await post(
        request({
          variants: [
            { name: 'a b', command: 'node x' },
            { name: 'c', command: 'node y' },
          ],
        }),
      ),
    );
    expect(bad).toEqual([{ error: '--variant "a b": a name is letters, digits, ".", "_" and "-" (it names a folder)' }]);
    // a server that never listens: the request is closed once it has started
    const abort = new AbortController();
    const never = request({
      variants: [
        { name: 'baseline', command: 'node -e "setInterval(() => {}, 1000)"' },
        { name: 'b', command: 'node x' },
      ],
    });
    const res = await post(never, undefined, { signal: abort.signal });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('run 1/1: baseline');
    const t0 = Date.now();
    abort.abort();
    // the next recording is not refused as "already running" once the cancelled one has stopped its server
    for (;;) {
      const next = await events(
        await post(
          request({
            variants: [
              { name: 'a b', command: 'x' },
              { name: 'c', command: 'y' },
            ],
          }),
        ),
      );
      if (!JSON.stringify(next).includes('already running')) break;
      expect(Date.now() - t0).toBeLessThan(10_000);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 60_000);
});
