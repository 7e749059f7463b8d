/**
 * `POST /api/record`: a recording the app's *Record…* dialog asks for (node/host/record-job),
 * answered as it goes with one JSON event per line (`{"progress"}`…, then `{"done"}` or
 * `{"error"}`). It runs commands, so beyond the secret every request needs: a JSON body of at most
 * 64 KiB, sent as `application/json` (which a page of another origin cannot send without the
 * server's consent), and an `Origin`, when the browser sends one, of this server. Closing the
 * request cancels the recording.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChosenItem, RecordEvent } from '../../shared/ipc/contract';
import { checkRecordRequest, runRecordJob } from '../host/record-job';
import { COMMON_HEADERS } from '../host/static-files';
import { send } from './reply';

const MAX_BODY = 64 * 1024;
const TEXT = 'text/plain; charset=utf-8';

async function body(req: IncomingMessage): Promise<string | undefined> {
  let size = 0;
  const parts: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return undefined;
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString('utf8');
}

export interface RecordRoute {
  /** whether a request's `Origin` is this server */
  originAllowed(origin: string): boolean;
  /** the written workspace as an item the app may open */
  choose(path: string): Promise<ChosenItem | null>;
}

export async function serveRecord(req: IncomingMessage, res: ServerResponse, route: RecordRoute): Promise<void> {
  const origin = req.headers.origin;
  if (origin !== undefined && !route.originAllowed(origin)) return send(res, 403, TEXT, 'forbidden origin');
  if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) return send(res, 415, TEXT, 'send the request as application/json');
  const text = await body(req);
  if (text === undefined) return send(res, 413, TEXT, 'the request is too large');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return send(res, 400, TEXT, 'the request is not JSON');
  }
  const request = checkRecordRequest(parsed);
  if (typeof request === 'string') return send(res, 400, TEXT, request);
  res.writeHead(200, { ...COMMON_HEADERS, 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store' });
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  const emit = (e: RecordEvent) => void (res.writableEnded || res.write(`${JSON.stringify(e)}\n`));
  await runRecordJob(request, emit, route.choose, abort.signal);
  res.end();
}
