/**
 * The statistics table of a trace-event file: for every (category, name, phase) the number of
 * events, their bytes in the file (each event's JSON text, `{` to `}`), their summed duration
 * (`X` dur, paired `B`/`E`, paired `b`/`e`, counted on the begin phase's row) and the wall-clock
 * time those spans cover together (their union: see shared/stats/intervals.ts).
 */
import { visibleText } from '../../../model/visible-text';
import type { TraceEventStat } from '../../../model/types';
import { IntervalCollector, coveredTime } from '../../../stats/intervals';

/** Per (category, name, phase) counters, nested maps so that no key string is built per event. */
export class StatTable {
  private readonly index = new Map<string, Map<string, Map<string, number>>>();
  /**
   * The last category and its names: nearly every event of a Node trace is in one category
   * ("node,node.async_hooks"), and looking up a fresh string hashes it each time.
   */
  private lastCat: string | undefined;
  private lastByName: Map<string, Map<string, number>> | undefined;
  private readonly cat: string[] = [];
  private readonly name: string[] = [];
  private readonly phase: string[] = [];
  readonly count: number[] = [];
  readonly bytes: number[] = [];
  readonly duration: number[] = [];
  private readonly spans: (IntervalCollector | undefined)[] = [];

  /** A span of an event type, `duration` µs from `start`: summed, and the time it covers kept. */
  span(stat: number, start: number, duration: number): void {
    this.duration[stat]! += duration;
    (this.spans[stat] ??= new IntervalCollector()).add(start, start + duration);
  }

  id(cat: string, name: string, phase: string): number {
    let byName = this.lastByName;
    if (cat !== this.lastCat || byName === undefined) {
      byName = this.index.get(cat);
      if (!byName) this.index.set(cat, (byName = new Map()));
      this.lastCat = cat;
      this.lastByName = byName;
    }
    let byPhase = byName.get(name);
    if (!byPhase) byName.set(name, (byPhase = new Map()));
    let i = byPhase.get(phase);
    if (i === undefined) {
      i = this.cat.length;
      byPhase.set(phase, i);
      this.cat.push(visibleText(cat));
      this.name.push(visibleText(name));
      this.phase.push(visibleText(phase));
      this.count.push(0);
      this.bytes.push(0);
      this.duration.push(0);
    }
    return i;
  }

  finish(): TraceEventStat[] {
    return this.cat.map((category, i) => {
      const stat: TraceEventStat = {
        category,
        name: this.name[i]!,
        phase: this.phase[i]!,
        count: this.count[i]!,
        bytes: this.bytes[i]!,
        duration: this.duration[i]!,
      };
      const spans = this.spans[i]?.merged();
      if (spans && spans.length > 0) {
        stat.spans = spans;
        stat.covered = coveredTime(spans);
      }
      return stat;
    });
  }
}
