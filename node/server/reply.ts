/** A whole small answer of the local server, with the headers every answer carries. */
import type { ServerResponse } from 'node:http';
import { COMMON_HEADERS } from '../host/static-files';

export function send(res: ServerResponse, status: number, type: string, body: string, headOnly = false): void {
  res.writeHead(status, {
    ...COMMON_HEADERS,
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(headOnly ? undefined : body);
}
