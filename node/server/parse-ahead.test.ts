import { describe, expect, it } from 'vitest';
import { type AheadItem, parsesAhead } from './parse-ahead';
import type { ParseEvent, ParseRequest } from './parse-file';
import type { FileParser } from './parse-pool';

/** A parser whose parses the test drives: each asked parse's listener, and how often each was cancelled. */
function drivenParser() {
  const parses: { req: ParseRequest; emit: (e: ParseEvent) => void; cancelled: number }[] = [];
  const parser: FileParser = {
    parse(req, onEvent) {
      const p = { req, emit: onEvent, cancelled: 0 };
      parses.push(p);
      return { done: Promise.resolve(), cancel: () => void p.cancelled++ };
    },
    close: async () => undefined,
  };
  return { parser, parses };
}

const items: AheadItem[] = [
  { token: 't1', request: { path: '/runs/a.folded', keepThreads: true } },
  { token: 't2', request: { path: '/runs/b.perf', keepThreads: true } },
];
const done: ParseEvent = { type: 'done', head: new Uint8Array([1]), columns: [new Uint8Array([2, 3])] };

describe('parses started ahead', () => {
  it('start when asked, one parse per file, and again once taken (a page opened again asks again)', () => {
    const { parser, parses } = drivenParser();
    const ahead = parsesAhead(parser, items);
    expect(parses).toHaveLength(0);
    ahead.start();
    ahead.start();
    expect(parses.map((p) => p.req)).toEqual(items.map((i) => i.request));
    ahead.take('t1', items[0]!.request, () => undefined);
    ahead.start();
    expect(parses.map((p) => p.req)).toEqual([...items.map((i) => i.request), items[0]!.request]);
    ahead.close();
  });

  it('hand the window what came before it asked (the last progress, or the end), then the rest as it comes', () => {
    const { parser, parses } = drivenParser();
    const ahead = parsesAhead(parser, items);
    ahead.start();
    parses[0]!.emit({ type: 'progress', read: 10, size: 100 });
    parses[0]!.emit({ type: 'progress', read: 20, size: 100 });
    parses[1]!.emit({ type: 'progress', read: 5, size: 50 });
    parses[1]!.emit(done);

    const first: ParseEvent[] = [];
    expect(ahead.take('t1', items[0]!.request, (e) => first.push(e))).toBeDefined();
    expect(first).toEqual([{ type: 'progress', read: 20, size: 100 }]);
    parses[0]!.emit({ type: 'progress', read: 100, size: 100 });
    parses[0]!.emit(done);
    expect(first.slice(1)).toEqual([{ type: 'progress', read: 100, size: 100 }, done]);

    const second: ParseEvent[] = [];
    expect(ahead.take('t2', items[1]!.request, (e) => second.push(e))).toBeDefined();
    expect(second).toEqual([done]);
    // taken once: the window asking again gets a parse of its own
    expect(ahead.take('t2', items[1]!.request, () => undefined)).toBeUndefined();
  });

  it('are not taken by a request they do not answer, nor before they have started', () => {
    const { parser } = drivenParser();
    const ahead = parsesAhead(parser, items);
    expect(ahead.take('t1', items[0]!.request, () => undefined)).toBeUndefined();
    ahead.start();
    expect(ahead.take('t1', { path: '/runs/a.folded', keepThreads: false }, () => undefined)).toBeUndefined();
    expect(ahead.take('t9', items[0]!.request, () => undefined)).toBeUndefined();
    expect(ahead.take('t1', items[0]!.request, () => undefined)).toBeDefined();
    ahead.close();
  });

  it('that nobody takes are stopped in time, and when the server closes', async () => {
    const { parser, parses } = drivenParser();
    const ahead = parsesAhead(parser, items, 30);
    ahead.start();
    ahead.take('t1', items[0]!.request, () => undefined);
    await expect.poll(() => parses[1]!.cancelled, { timeout: 2000 }).toBe(1);
    expect(parses[0]!.cancelled).toBe(0);
    expect(ahead.take('t2', items[1]!.request, () => undefined)).toBeUndefined();

    const again = drivenParser();
    const closing = parsesAhead(again.parser, items);
    closing.start();
    closing.close();
    expect(again.parses.map((p) => p.cancelled)).toEqual([1, 1]);
  });
});
