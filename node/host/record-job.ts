/**
 * A recording the app asked for (its *Record…* dialog): `flamelens record` run in this process
 * with the person's variants and settings, its progress lines reported as they come, and at the
 * end the workspace it wrote offered back to the app as a chosen file. The commands are the ones
 * the person typed in the app, run on this machine as this user: the same as typing them in a
 * terminal, which is why only the local server behind its secret and Electron's main process
 * offer it. One recording at a time.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { ChosenItem, RecordEvent, RecordRequest } from '../../shared/ipc/contract';
import { CliError } from '../cli/errors';
import { record } from '../cli/record';
import { CAPTURES } from '../cli/record-capture';

const MAX_VARIANTS = 16;
const MAX_COMMAND = 4000;

/** The request's fields checked, or a message saying which is wrong. */
export function checkRecordRequest(v: unknown): RecordRequest | string {
  if (typeof v !== 'object' || v === null) return 'the request is not an object';
  const r = v as Record<string, unknown>;
  if (typeof r.out !== 'string' || (r.out !== '' && !isAbsolute(r.out))) return 'the folder must be an absolute path (or empty)';
  if (!Array.isArray(r.variants) || r.variants.length < 2 || r.variants.length > MAX_VARIANTS)
    return `give between 2 and ${MAX_VARIANTS} variants`;
  for (const x of r.variants as unknown[]) {
    const o = x as Record<string, unknown> | null;
    if (typeof o?.name !== 'string' || typeof o.command !== 'string' || o.command.trim() === '' || o.command.length > MAX_COMMAND)
      return 'each variant needs a name and a command';
  }
  for (const k of ['requests', 'connections', 'repeat'] as const)
    if (!Number.isInteger(r[k]) || (r[k] as number) < 1 || (r[k] as number) > 1e9) return `${k} must be a whole number of at least 1`;
  if (!Array.isArray(r.capture) || !r.capture.every((c) => (CAPTURES as readonly unknown[]).includes(c)))
    return `capture is a list of ${CAPTURES.join(', ')}`;
  return r as unknown as RecordRequest;
}

/** Where a recording goes when the request names no folder: a new one under ~/flamelens-records. */
function defaultRecordFolder(now = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-').replace('T', '_').slice(0, 19);
  return join(homedir(), 'flamelens-records', `record-${stamp}`);
}

/** `flamelens record`'s arguments for a request. */
function recordArgs(r: RecordRequest, out: string): string[] {
  return [
    ...['--out', out, '--requests', String(r.requests), '--connections', String(r.connections), '--repeat', String(r.repeat)],
    ...['--capture', r.capture.length ? r.capture.join(',') : 'none'],
    ...r.variants.flatMap((v) => ['--variant', `${v.name}=${v.command}`]),
  ];
}

let busy = false;

/**
 * Runs the recording, reporting each progress line and how it ended through `emit`; `choose`
 * turns the written workspace into an item the app may open. Resolves when it has ended.
 */
export async function runRecordJob(
  r: RecordRequest,
  emit: (e: RecordEvent) => void,
  choose: (path: string) => Promise<ChosenItem | null>,
  signal?: AbortSignal,
): Promise<void> {
  if (busy) return emit({ error: 'a recording is already running' });
  busy = true;
  const out = r.out || defaultRecordFolder();
  let summary = '';
  const lines = (write: (line: string) => void) => {
    let rest = '';
    return {
      write(text: string) {
        const parts = (rest + text).split('\n');
        rest = parts.pop()!;
        for (const p of parts) if (p.trim()) write(p);
      },
    };
  };
  try {
    const code = await record(
      recordArgs(r, out),
      { stdout: { write: (t: string) => (summary += t) }, stderr: lines((line) => emit({ progress: line })) },
      signal,
    );
    const path = join(out, 'comparison.flamelens');
    emit({ done: { code, out, summary: summary.trim(), workspace: existsSync(path) ? await choose(path) : null } });
  } catch (e) {
    emit({ error: e instanceof CliError ? e.message : `the recording failed: ${(e as Error).message}` });
  } finally {
    busy = false;
  }
}
