/**
 * Span durations of a trace-event file worked out without Flamelens's importer, for tests: the
 * raw JSON read with `JSON.parse`, `X` events' `dur`, `B`/`E` paired per thread, `b`/`e` paired
 * per process, category and id (the innermost open span of the same name), and the time each
 * event type's spans cover found by sorting their intervals.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

type Event = Record<string, unknown>;

export interface SpanFigures {
  /** every span's length added up, µs */
  summed: number;
  /** the time covered by at least one span, µs */
  covered: number;
}

/** Per `category \u0000 name`: the summed and the covered duration of that event type's spans. */
export function independentSpanFigures(path: string): Map<string, SpanFigures> {
  const raw = readFileSync(path);
  const text = (path.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
  const parsed = JSON.parse(text) as Event[] | { traceEvents: Event[] };
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const spans = new Map<string, [number, number][]>();
  const add = (e: Event, start: number, end: number) => {
    const k = `${String(e.cat ?? '')}\u0000${String(e.name ?? '')}`;
    let list = spans.get(k);
    if (!list) spans.set(k, (list = []));
    list.push([start, end]);
  };
  const sync = new Map<string, Event[]>();
  const open = new Map<string, Event[]>();
  for (const e of events) {
    const ts = e.ts as number;
    if (typeof ts !== 'number') continue;
    if (e.ph === 'X') add(e, ts, ts + (typeof e.dur === 'number' ? e.dur : 0));
    else if (e.ph === 'B' || e.ph === 'E') {
      const k = `${String(e.pid)}|${String(e.tid)}`;
      const stack = sync.get(k) ?? [];
      sync.set(k, stack);
      if (e.ph === 'B') stack.push(e);
      else {
        const b = stack.pop();
        if (b) add(b, b.ts as number, Math.max(b.ts as number, ts));
      }
    } else if (e.ph === 'b' || e.ph === 'e') {
      const id = e.id2 !== undefined ? JSON.stringify(e.id2) : String(e.id);
      const k = `${String(e.pid)}|${String(e.cat)}|${String(e.scope)}|${id}|${String(e.name)}`;
      const stack = open.get(k) ?? [];
      open.set(k, stack);
      if (e.ph === 'b') stack.push(e);
      else {
        const b = stack.pop();
        if (b) add(b, b.ts as number, Math.max(b.ts as number, ts));
      }
    }
  }
  const out = new Map<string, SpanFigures>();
  for (const [k, list] of spans) {
    let summed = 0;
    for (const [a, b] of list) summed += b - a;
    list.sort((x, y) => x[0] - y[0]);
    let covered = 0;
    let end = -Infinity;
    for (const [a, b] of list) {
      if (b <= end) continue;
      covered += b - Math.max(a, end);
      end = b;
    }
    out.set(k, { summed, covered });
  }
  return out;
}
