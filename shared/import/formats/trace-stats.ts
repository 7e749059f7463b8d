/**
 * The statistics table of a trace-event file: for every (category, name, phase) the number of
 * events, their bytes in the file (each event's JSON text, `{` to `}`) and their summed duration
 * (`X` dur, paired `B`/`E`, paired `b`/`e`, counted on the begin phase's row).
 */
import type { TraceEventStat } from '../../model/types';

/** Per (category, name, phase) counters, nested maps so that no key string is built per event. */
export class StatTable {
  private readonly index = new Map<string, Map<string, Map<string, number>>>();
  private readonly cat: string[] = [];
  private readonly name: string[] = [];
  private readonly phase: string[] = [];
  readonly count: number[] = [];
  readonly bytes: number[] = [];
  readonly duration: number[] = [];

  id(cat: string, name: string, phase: string): number {
    let byCat = this.index.get(phase);
    if (!byCat) this.index.set(phase, (byCat = new Map()));
    let byName = byCat.get(cat);
    if (!byName) byCat.set(cat, (byName = new Map()));
    let i = byName.get(name);
    if (i === undefined) {
      i = this.cat.length;
      byName.set(name, i);
      this.cat.push(cat);
      this.name.push(name);
      this.phase.push(phase);
      this.count.push(0);
      this.bytes.push(0);
      this.duration.push(0);
    }
    return i;
  }

  finish(): TraceEventStat[] {
    return this.cat.map((category, i) => ({
      category,
      name: this.name[i]!,
      phase: this.phase[i]!,
      count: this.count[i]!,
      bytes: this.bytes[i]!,
      duration: this.duration[i]!,
    }));
  }
}
