/**
 * Recordings asked for over Electron's IPC, where a call answers once: `start` begins one and
 * gives its id, `next` waits (up to `waitMs`) for what it reported since the last call, `stop`
 * cancels it. A recording's events stay until read; once its last event (done or error) is read,
 * it is forgotten.
 */
import { randomUUID } from 'node:crypto';
import type { RecordEvent, RecordRequest } from '../../shared/ipc/contract';
import { InvalidArgumentError } from './files';
import { checkRecordRequest } from './record-job';

type Job = (r: RecordRequest, emit: (e: RecordEvent) => void, signal: AbortSignal) => Promise<void>;

interface Session {
  events: RecordEvent[];
  ended: boolean;
  wake: (() => void) | undefined;
  abort: AbortController;
}

const isLast = (e: RecordEvent) => 'done' in e || 'error' in e;

export function createRecordSessions(job: Job, waitMs = 10_000) {
  const sessions = new Map<string, Session>();
  const session = (id: unknown): Session => {
    const s = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!s) throw new InvalidArgumentError('no recording under that id');
    return s;
  };
  return {
    start(req: unknown): string {
      const checked = checkRecordRequest(req);
      if (typeof checked === 'string') throw new InvalidArgumentError(checked);
      const id = randomUUID();
      const s: Session = { events: [], ended: false, wake: undefined, abort: new AbortController() };
      sessions.set(id, s);
      const emit = (e: RecordEvent) => {
        s.events.push(e);
        s.wake?.();
      };
      void job(checked, emit, s.abort.signal)
        .catch((e: Error) => emit({ error: `the recording failed: ${e.message}` }))
        .finally(() => {
          if (!s.events.some(isLast)) emit({ error: 'the recording ended without a result' });
          s.ended = true;
        });
      return id;
    },

    async next(id: unknown): Promise<RecordEvent[]> {
      const s = session(id);
      if (s.events.length === 0)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, waitMs);
          s.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      s.wake = undefined;
      const events = s.events.splice(0);
      if (events.some(isLast)) sessions.delete(id as string);
      return events;
    },

    stop(id: unknown): void {
      session(id).abort.abort();
    },
  };
}
