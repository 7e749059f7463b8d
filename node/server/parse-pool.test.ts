/**
 * The server's parse threads: a parse's events reach the server in order; a thread that fails or
 * ends without a result declines the file (the window then reads it); a cancelled parse says
 * nothing more; at most `size` run at once. The threads here run a stand-in for
 * parse-thread.js that does what the request's path says.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParseEvent } from './parse-file';
import { type FileParser, threadParser } from './parse-pool';

const STAND_IN = `
import { parentPort, threadId } from 'node:worker_threads';
const born = Date.now();
parentPort.on('message', async (req) => {
  const post = (e) => parentPort.postMessage(e);
  if (req.path === 'born') {
    // when the thread started: its time as the progress
    post({ type: 'progress', read: born, size: undefined });
    post({ type: 'done', head: new Uint8Array(1), columns: [] });
  } else if (req.path.startsWith('thread')) {
    // which thread parses: its id as the progress
    post({ type: 'progress', read: threadId, size: undefined });
    await new Promise((r) => setTimeout(r, 20));
    if (req.path === 'thread-error') post({ type: 'error', error: { file: 'f', message: 'bad' } });
    else if (req.path === 'thread-declines') post({ type: 'declined', why: 'no memory' });
    else post({ type: 'done', head: new Uint8Array(1), columns: [] });
  } else if (req.path === 'ok') {
    post({ type: 'progress', read: 5, size: 10 });
    const head = new TextEncoder().encode('{"sections":[],"profile":{}}\\n');
    post({ type: 'done', head, columns: [] });
  } else if (req.path === 'throws') {
    throw new Error('the importer broke');
  } else if (req.path === 'exits') {
    process.exit(3);
  } else if (req.path.startsWith('slow')) {
    post({ type: 'progress', read: Date.now(), size: undefined });
    await new Promise((r) => setTimeout(r, 150));
    post({ type: 'declined', why: String(Date.now()) });
  } else if (req.path === 'hangs') {
    setInterval(() => undefined, 1000); // busy, never answering
  }
});
`;

let dir: string;
let script: string;
const parsers: FileParser[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'flamelens-parse-pool-'));
  script = join(dir, 'stand-in.mjs');
  writeFileSync(script, STAND_IN);
});
afterAll(async () => {
  await Promise.all(parsers.map((p) => p.close()));
  rmSync(dir, { recursive: true, force: true });
});

function pool(size?: number, spareAfterMs?: number): FileParser {
  const p = threadParser(script, size, spareAfterMs);
  parsers.push(p);
  return p;
}

async function events(parser: FileParser, path: string): Promise<ParseEvent[]> {
  const got: ParseEvent[] = [];
  await parser.parse({ path, keepThreads: true }, (e) => got.push(e)).done;
  return got;
}

describe('parse threads', () => {
  it("give a parse's events in order, its result last", async () => {
    const got = await events(pool(), 'ok');
    expect(got.map((e) => e.type)).toEqual(['progress', 'done']);
    const done = got[1] as Extract<ParseEvent, { type: 'done' }>;
    expect(new TextDecoder().decode(done.head)).toBe('{"sections":[],"profile":{}}\n');
  });

  it('decline a file whose thread fails or ends without a result', async () => {
    const p = pool();
    expect(await events(p, 'throws')).toEqual([{ type: 'declined', why: "the server's parse failed: the importer broke" }]);
    expect(await events(p, 'exits')).toEqual([{ type: 'declined', why: "the server's parse ended without a result" }]);
    // and the next parse runs as ever
    expect((await events(p, 'ok')).at(-1)?.type).toBe('done');
  });

  it('say nothing more of a cancelled parse, and end its thread', async () => {
    const got: ParseEvent[] = [];
    const job = pool().parse({ path: 'hangs', keepThreads: true }, (e) => got.push(e));
    await new Promise((r) => setTimeout(r, 100));
    job.cancel();
    await job.done;
    expect(got).toEqual([]);
  });

  it('run at most `size` parses at once, the others in turn', async () => {
    const p = pool(1);
    const [a, b] = await Promise.all([events(p, 'slow-a'), events(p, 'slow-b')]);
    const started = (e: ParseEvent[]) => (e[0] as Extract<ParseEvent, { type: 'progress' }>).read;
    const ended = (e: ParseEvent[]) => Number((e[1] as Extract<ParseEvent, { type: 'declined' }>).why);
    const [first, second] = started(a) < started(b) ? [a, b] : [b, a];
    expect(started(second)).toBeGreaterThanOrEqual(ended(first));
    // with room for both, they overlap
    const q = pool(2);
    const [c, d] = await Promise.all([events(q, 'slow-c'), events(q, 'slow-d')]);
    expect(Math.max(started(c), started(d))).toBeLessThan(Math.min(ended(c), ended(d)));
  });

  it("give a thread whose parse ended with a profile or the importers' error the next parse waiting, and no other", async () => {
    const p = pool(1);
    const threadOf = (e: ParseEvent[]) => (e[0] as Extract<ParseEvent, { type: 'progress' }>).read;
    // four files asked for at once, one parse at a time: one thread for them all
    const four = await Promise.all(['thread-1', 'thread-error', 'thread-2', 'thread-3'].map((f) => events(p, f)));
    expect(four.map((e) => e.at(-1)!.type)).toEqual(['done', 'error', 'done', 'done']);
    expect(new Set(four.map(threadOf)).size).toBe(1);
    // a thread that declined (its own failure, such as memory) ends; the parse after it gets another
    const [declined, after] = await Promise.all([events(p, 'thread-declines'), events(p, 'thread-4')]);
    expect(threadOf(after)).not.toBe(threadOf(declined));
    // with nothing waiting, a thread ends with its parse: the next parse is another's
    const later = await events(p, 'thread-5');
    expect([threadOf(after), ...four.map(threadOf)]).not.toContain(threadOf(later));
  });

  it('start the next spare thread a while after the last parse, not at once', async () => {
    const p = pool(1, 300);
    const bornOf = async () => ((await events(p, 'born'))[0] as Extract<ParseEvent, { type: 'progress' }>).read;
    await bornOf();
    // the spare after it starts once the parses have paused `spareAfterMs`, before it is asked for
    const ended = Date.now();
    await new Promise((r) => setTimeout(r, 600));
    const spareBorn = await bornOf();
    expect(spareBorn).toBeGreaterThanOrEqual(ended + 300 - 20);
    expect(spareBorn).toBeLessThan(ended + 600);
  });

  it('let a cancel after its parse has ended leave alone the thread the next parse took', async () => {
    const p = pool(1);
    const first = p.parse({ path: 'thread-1', keepThreads: true }, () => undefined);
    const got: ParseEvent[] = [];
    const second = p.parse({ path: 'thread-2', keepThreads: true }, (e) => got.push(e));
    await first.done;
    first.cancel();
    await second.done;
    expect(got.map((e) => e.type)).toEqual(['progress', 'done']);
  });

  it('end every thread when closed, a parse under way included', async () => {
    const p = threadParser(script);
    const got: ParseEvent[] = [];
    const job = p.parse({ path: 'hangs', keepThreads: true }, (e) => got.push(e));
    await new Promise((r) => setTimeout(r, 100));
    await p.close();
    await job.done;
    expect(got.map((e) => e.type)).toEqual(['declined']);
  });
});
