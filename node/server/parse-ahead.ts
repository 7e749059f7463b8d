/**
 * The files named on the command line, parsed while the window starts: the page's first request
 * starts their parses, and the window's own requests for them (`/api/parsed/`) take those parses
 * over instead of starting them. The window asks only once its script has loaded, compiled and
 * run and its import worker has started (a third of a second and more); the server's threads are
 * idle until then. Every page opened (a reload too) asks for the files again, so each opening
 * parses them ahead, as the window imports a file it shows (every thread kept); a parse nobody
 * has taken within `keepMs` is stopped and let go.
 */
import type { ParseEvent, ParseRequest } from './parse-file';
import type { FileParser, ParseJob } from './parse-pool';

export interface AheadItem {
  token: string;
  request: ParseRequest;
}

export interface ParsesAhead {
  /** starts a parse of each file, but of those whose parse started ahead still waits to be taken */
  start(): void;
  /**
   * the parse of `token` started ahead for `request`, taken over (once): the events it has given
   * so far (the last progress, and its end if it has ended) go to `onEvent` now, the rest as they
   * come; undefined where there is none to take
   */
  take(token: string, request: ParseRequest, onEvent: (e: ParseEvent) => void): ParseJob | undefined;
  /** stops the parses nobody has taken */
  close(): void;
}

/** What a parse has said before it was taken, and whom it tells once it has been. */
interface Heard {
  /** the last progress event, and the last event once it has come */
  progress?: ParseEvent;
  last?: ParseEvent;
  /** the window's listener, once taken */
  onEvent?: (e: ParseEvent) => void;
}

interface Entry {
  job: ParseJob;
  request: ParseRequest;
  heard: Heard;
  timer: ReturnType<typeof setTimeout>;
}

/** How long a parse started ahead waits to be taken: the window asks within seconds. */
const KEEP_MS = 60_000;

export function parsesAhead(parser: FileParser, items: readonly AheadItem[], keepMs = KEEP_MS): ParsesAhead {
  const waiting = new Map<string, Entry>();
  const drop = (token: string) => {
    const entry = waiting.get(token);
    if (!entry) return;
    waiting.delete(token);
    clearTimeout(entry.timer);
    entry.job.cancel();
  };
  return {
    start() {
      for (const { token, request } of items) {
        if (waiting.has(token)) continue;
        const heard: Heard = {};
        const job = parser.parse(request, (e) => {
          if (heard.onEvent) return heard.onEvent(e);
          if (e.type === 'progress') heard.progress = e;
          else heard.last = e;
        });
        const timer = setTimeout(() => drop(token), keepMs);
        timer.unref();
        waiting.set(token, { job, request, heard, timer });
      }
    },
    take(token, request, onEvent) {
      const entry = waiting.get(token);
      if (!entry || entry.request.keepThreads !== request.keepThreads || entry.request.path !== request.path) return undefined;
      waiting.delete(token);
      clearTimeout(entry.timer);
      const { heard } = entry;
      if (heard.last) onEvent(heard.last);
      else {
        if (heard.progress) onEvent(heard.progress);
        heard.onEvent = onEvent;
      }
      heard.progress = heard.last = undefined;
      return entry.job;
    },
    close() {
      for (const token of [...waiting.keys()]) drop(token);
    },
  };
}
