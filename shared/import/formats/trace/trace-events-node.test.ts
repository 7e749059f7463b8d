/** Trace events importer on real Node.js traces (fixtures/samples): event statistics by category, name and phase, and their spans. */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../../model/types';
import { fixturePath, scribblingSource } from '../../../../test/support/files';
import { type RawEvent, frameName, load, rootChildren, stacks } from '../../../../test/support/trace-events';
import { importProfile } from '../../import-profile';
import { bytesSource } from '../../io/source';

describe('trace events: real Node.js traces', () => {
  interface Count {
    count: number;
    bytes: number;
    duration: number;
  }
  /**
   * Counted independently: the whole file through JSON.parse, bytes from JSON.stringify (the file
   * is written compactly, so that is each event's own text: checked), B/E paired per thread and
   * b/e per category and id with plain stacks (these files nest cleanly).
   */
  function countEvents(text: string) {
    const parsed = JSON.parse(text) as { traceEvents: RawEvent[] };
    const counts = new Map<string, Count>();
    const get = (e: RawEvent) => {
      const k = `${e.cat ?? ''}|${e.name ?? ''}|${e.ph}`;
      let c = counts.get(k);
      if (!c) counts.set(k, (c = { count: 0, bytes: 0, duration: 0 }));
      return c;
    };
    let at = text.indexOf('[') + 1;
    let notVerbatim = 0;
    const open = new Map<string, RawEvent[]>();
    for (const e of parsed.traceEvents) {
      const json = JSON.stringify(e);
      if (!text.startsWith(json, at)) notVerbatim++;
      at += json.length + 1;
      const c = get(e);
      c.count++;
      c.bytes += Buffer.byteLength(json);
      if (e.ph === 'X') c.duration += e.dur!;
      const key = e.ph === 'B' || e.ph === 'E' ? `${e.pid}:${e.tid}` : `${e.cat}|${e.id}`;
      if (e.ph === 'B' || e.ph === 'b') {
        if (!open.has(key)) open.set(key, []);
        open.get(key)!.push(e);
      } else if (e.ph === 'E' || e.ph === 'e') {
        const b = open.get(key)!.pop()!;
        get(b).duration += e.ts - b.ts;
      }
    }
    return { counts, notVerbatim, events: parsed.traceEvents.length };
  }

  const runs = new Map<string, Promise<Profile>>();
  /** Imports a run once and checks its statistics against the independent count. */
  function run(name: string): Promise<Profile> {
    if (!runs.has(name)) {
      runs.set(
        name,
        (async () => {
          const path = fixturePath(`samples/${name}/node_trace.1.log.gz`);
          const want = countEvents(gunzipSync(readFileSync(path)).toString('utf8'));
          expect(want.notVerbatim).toBe(0);
          const p = await load(path, 'node_trace.1.log.gz', 1 << 20);
          const got = new Map(
            p.traceStats!.map((s) => [`${s.category}|${s.name}|${s.phase}`, { count: s.count, bytes: s.bytes, duration: s.duration }]),
          );
          expect(got).toEqual(want.counts);
          expect(p.traceStats!.reduce((n, s) => n + s.count, 0)).toBe(want.events);
          expect([p.kind, p.unit, p.meta.producer]).toEqual(['spans', 'microseconds', 'node --trace-event-categories']);
          return p;
        })(),
      );
    }
    return runs.get(name)!;
  }

  it('counts every baseline event by category, name and phase, with bytes and durations', async () => {
    const p = await run('baseline');
    expect(p.traceStats!.reduce((n, s) => n + s.count, 0)).toBe(464849);
    expect(p.meta.threadNames!['6164:6164']).toBe('JavaScriptMainThread');
    // Spans: the main thread, then the async resources with their callbacks nested.
    const [main, async] = rootChildren(p);
    expect([frameName(p, main!), frameName(p, async!)]).toEqual(['JavaScriptMainThread (6164/6164)', 'async']);
    const resources = stacks(p, async).map((s) => s.split(' ')[0]!);
    expect(resources).toEqual(
      expect.arrayContaining(['PROMISE;PROMISE_CALLBACK', 'TickObject;TickObject_CALLBACK', 'Timeout;Timeout_CALLBACK']),
    );
    expect(stacks(p, main!)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^fs\.sync\.open \d+$/), expect.stringMatching(/^MinorGC;V8\.GCScavenger \d+$/)]),
    );
    expect(p.meta.warnings.join('\n')).toMatch(/async span\(s\) never ended .*PROMISE ×302/);
  });

  it('shows what dd-trace adds: new event types and twice the fs.sync events', async () => {
    const base = await run('baseline');
    const dd = await run('ddtrace');
    const names = (p: Profile) => new Set(p.traceStats!.map((s) => s.name));
    const fsSync = (p: Profile) => p.traceStats!.filter((s) => s.name.startsWith('fs.sync.')).reduce((n, s) => n + s.count, 0);
    for (const n of ['HTTPCLIENTREQUEST', 'UDPWRAP']) {
      expect(names(base).has(n)).toBe(false);
      expect(names(dd).has(n)).toBe(true);
    }
    expect(fsSync(dd) / fsSync(base)).toBeGreaterThan(1.7);
    expect(fsSync(dd) / fsSync(base)).toBeLessThan(2.5);
  });
});

describe('trace events: the bytes read', () => {
  it('are given back to be read into again, and the trace is read the same when they are scribbled over at once', async () => {
    // (a Uint8Array, whose slices are copies: a Buffer's would be views of it)
    const bytes = new Uint8Array(gunzipSync(readFileSync(fixturePath('samples/baseline', 'node_trace.1.log.gz'))));
    const size = 1 << 16;
    const { source: src, given } = scribblingSource('node_trace.1.log', bytes, size);
    const p = await importProfile(src);
    const plain = await importProfile(bytesSource('node_trace.1.log', bytes));
    expect(p.traceStats).toEqual(plain.traceStats);
    expect([...p.tree.self]).toEqual([...plain.tree.self]);
    expect(given.size).toBeGreaterThan(bytes.length / size - 20);
  });
});
