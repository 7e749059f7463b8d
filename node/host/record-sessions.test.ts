import { describe, expect, it } from 'vitest';
import type { RecordEvent, RecordRequest } from '../../shared/ipc/contract';
import { createRecordSessions } from './record-sessions';

const request: RecordRequest = {
  out: '',
  variants: [
    { name: 'baseline', command: 'node a.js' },
    { name: 'agent', command: 'node b.js' },
  ],
  requests: 10,
  connections: 1,
  repeat: 1,
  capture: ['cpu'],
};

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));

describe('recordings over a call-and-answer channel', () => {
  it('hands over progress as it comes, then the result, then forgets the recording', async () => {
    const sessions = createRecordSessions(async (_r, emit) => {
      emit({ progress: 'run 1/1: baseline' });
      await tick(20);
      emit({ progress: 'run 1/1: agent' });
      await tick(20);
      emit({ done: { code: 0, out: '/tmp/x', summary: 's', workspace: null } });
    }, 1000);
    const id = sessions.start(request);
    const seen: RecordEvent[] = [];
    while (!seen.some((e) => 'done' in e)) seen.push(...(await sessions.next(id)));
    expect(seen).toEqual([
      { progress: 'run 1/1: baseline' },
      { progress: 'run 1/1: agent' },
      { done: { code: 0, out: '/tmp/x', summary: 's', workspace: null } },
    ]);
    await expect(sessions.next(id)).rejects.toThrow('no recording under that id');
  });

  it('waits at most its limit for news, and a stop reaches the job as an abort', async () => {
    let aborted = false;
    const sessions = createRecordSessions(
      (_r, emit, signal) =>
        new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => {
            aborted = true;
            emit({ error: 'the recording was cancelled' });
            resolve();
          }),
        ),
      30,
    );
    const id = sessions.start(request);
    expect(await sessions.next(id)).toEqual([]);
    sessions.stop(id);
    expect(aborted).toBe(true);
    expect(await sessions.next(id)).toEqual([{ error: 'the recording was cancelled' }]);
  });

  it('refuses a bad request or an unknown id, and reports a job that fails or ends without a result', async () => {
    const sessions = createRecordSessions(async () => {
      throw new Error('boom');
    }, 1000);
    expect(() => sessions.start({ ...request, variants: [] })).toThrow('give between 2 and 16 variants');
    expect(() => sessions.stop('nope')).toThrow('no recording under that id');
    expect(await sessions.next(sessions.start(request))).toEqual([{ error: 'the recording failed: boom' }]);
    const silent = createRecordSessions(async () => {}, 1000);
    expect(await silent.next(silent.start(request))).toEqual([{ error: 'the recording ended without a result' }]);
  });
});
