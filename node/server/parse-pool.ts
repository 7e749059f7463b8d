/**
 * Runs the server's parses (./parse-file) in worker threads: a file whose parse fails, runs out
 * of memory or is cancelled takes only its thread down, never the server. One thread is kept
 * started ahead, so that a parse asked for starts at once rather than after its thread has
 * loaded the importers (~0.1 s of CPU): the next one a while after the last parse has ended
 * (`spareAfterMs`), not at once, when the window that asked is drawing what it got and needs
 * the cores more. At most `size` parse at once, the others wait their turn,
 * and a thread whose parse has ended with a profile or the importers' error takes the next one
 * waiting (four files named together started three threads more, each on its file's way). A
 * thread ends once no parse waits for it, or when its parse failed otherwise or was cancelled.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { type ParseEvent, type ParseRequest, parseFile } from './parse-file';

export interface ParseJob {
  /** settles once the last event has been given */
  done: Promise<void>;
  /** stops the parse (its thread ends); no event follows */
  cancel(): void;
}

export interface FileParser {
  /** parses a file, giving each event to `onEvent`; the last is `done`, `error` or `declined` */
  parse(req: ParseRequest, onEvent: (e: ParseEvent) => void): ParseJob;
  close(): Promise<void>;
}

/** Old-generation memory a parse thread may use: more than any import within its budget needs. */
const THREAD_HEAP_MB = 4096;

/**
 * How long after the last parse the next spare thread starts: on two cores, starting it at once
 * took ~0.1 s of CPU from the window drawing the file just parsed (0.53 s against 0.62 s from
 * navigation until drawn, 100 MB of folded stacks, medians of 20 alternating runs).
 */
const SPARE_AFTER_MS = 1000;

export function threadParser(script: string, size = Math.max(1, availableParallelism()), spareAfterMs = SPARE_AFTER_MS): FileParser {
  let spare: Worker | undefined;
  let spareTimer: ReturnType<typeof setTimeout> | undefined;
  let running = 0;
  let closed = false;
  const waiting: (() => void)[] = [];
  const live = new Set<Worker>();
  const start = () => {
    const w = new Worker(script, { resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
    // The server keeps the process alive; a thread alone does not.
    w.unref();
    live.add(w);
    w.once('exit', () => live.delete(w));
    return w;
  };
  const take = (): Worker => {
    const w = spare ?? start();
    spare = undefined;
    return w;
  };
  // The next spare starts a while after the last parse has ended, not beside it: on a machine of
  // few cores, loading a thread's importers slowed the parse under way, then the window.
  const replenish = () => {
    clearTimeout(spareTimer);
    spareTimer = setTimeout(() => {
      spareTimer = undefined;
      if (!closed && spare === undefined && running === 0) spare = start();
    }, spareAfterMs);
    spareTimer.unref();
  };
  spare = start();

  function parse(req: ParseRequest, onEvent: (e: ParseEvent) => void): ParseJob {
    let cancelled = false;
    let worker: Worker | undefined;
    /** the parse has ended: its thread may be another parse's now */
    let ended = false;
    const run = (): Promise<void> =>
      new Promise<void>((resolve) => {
        const w = take();
        worker = w;
        /** `reusable`: the thread may take the next parse (it ended with a profile or the importers' error) */
        const end = (last: ParseEvent, reusable = false) => {
          if (ended) return;
          ended = true;
          w.off('message', onMessage);
          w.off('error', onError);
          w.off('exit', onExit);
          if (!cancelled) onEvent(last);
          // (the next waiting parse takes it as the spare: `waiting` is let go once this one has settled)
          if (reusable && !cancelled && !closed && waiting.length > 0 && spare === undefined) spare = w;
          else void w.terminate();
          resolve();
        };
        const onMessage = (e: ParseEvent) => {
          if (cancelled) return;
          if (e.type === 'progress') onEvent(e);
          else end(e, e.type !== 'declined');
        };
        const onError = (e: Error) => end({ type: 'declined', why: `the server's parse failed: ${e.message}` });
        const onExit = () => end({ type: 'declined', why: "the server's parse ended without a result" });
        w.on('message', onMessage);
        w.on('error', onError);
        w.on('exit', onExit);
        w.postMessage(req);
      });
    const done = (async () => {
      if (running >= size) await new Promise<void>((go) => waiting.push(go));
      running++;
      try {
        if (!cancelled) await run();
      } finally {
        running--;
        waiting.shift()?.();
        replenish();
      }
    })();
    return {
      done,
      cancel() {
        cancelled = true;
        if (!ended) void worker?.terminate();
      },
    };
  }

  return {
    parse,
    async close() {
      closed = true;
      clearTimeout(spareTimer);
      spare = undefined;
      await Promise.all([...live].map((w) => w.terminate()));
    },
  };
}

/** The same parses in this thread, for tests of what uses a parser (the server's route). */
export function inProcessParser(): FileParser {
  return {
    parse(req, onEvent) {
      let cancelled = false;
      const done = parseFile(req, (e) => {
        if (!cancelled) onEvent(e);
      });
      return { done, cancel: () => void (cancelled = true) };
    },
    close: async () => undefined,
  };
}
