/**
 * The contract every importer fulfils. One file per format under `shared/import/formats/`, each
 * with a header comment naming the format and its reference; `registry.ts` lists them in order.
 */
import type { BuildBudget } from '../model/budget';
import type { FormatId, Profile } from '../model/types';
import type { OpenedSource } from './io/source';

export interface ImportOptions {
  /** perf script: the event type to keep (default: the first one seen) */
  perfEvent?: string;
  /**
   * trace events with samples of several threads: the thread to show, as `PID:TID`, as its name
   * (the busiest thread of that name), or `all` (each thread under a root frame of its own);
   * default: the busiest main thread
   */
  thread?: string;
  /**
   * how the app reads a file once for every thread: where a trace has samples of several
   * threads, all of them (as `thread: 'all'`) with `meta.defaultThread` the one shown without a
   * choice; otherwise as without a choice (a perf capture keeps its threads' samples apart then)
   */
  keepThreads?: boolean;
  /**
   * false: the caller needs only the call tree and its weights (`flamelens collapse`), so an
   * importer may leave out the table of individual samples (.cpuprofile does: for a long capture it
   * is twice the file's size); the tree, its weights and `meta` are the same
   */
  samples?: boolean;
}

export interface ImportContext {
  /** file name, for messages and as a format hint */
  file: string;
  source: OpenedSource;
  options: ImportOptions;
  /**
   * what the import may build for the bytes it has read (model/budget.ts): importers give it to
   * the builders they make (`new CallTreeBuilder(budget)`, `new FrameTableBuilder(budget)`)
   */
  budget?: BuildBudget;
}

export interface Importer {
  id: FormatId;
  /** human-readable name listed in "unsupported format" messages and the UI */
  label: string;
  /** file name endings that suggest the format (a hint only) */
  extensions: string[];
  /**
   * Cheap content test on the first ≤64 KiB of decompressed text. `fileName` may be '' and must
   * never be required; it can only break ties.
   */
  sniff(head: string, fileName: string): boolean;
  parse(ctx: ImportContext): Promise<Profile>;
  /**
   * For formats written as a folder (0x): the file of `names` to read, or undefined when the
   * folder is not this format's.
   */
  pickFromFolder?(names: string[]): string | undefined;
}
