/**
 * The entry of a parse thread (./parse-pool): takes a request, parses the file (./parse-file)
 * and posts each event, the profile's bytes transferred, not copied; then the next request, if
 * the pool gives it one (one at a time).
 */
import { parentPort } from 'node:worker_threads';
import { type ParseEvent, type ParseRequest, parseFile } from './parse-file';

const port = parentPort;
if (!port) throw new Error('parse-thread runs as a worker thread');
port.on('message', (req: ParseRequest) => {
  void parseFile(req, (e: ParseEvent) => {
    const transfer = e.type === 'done' ? [...new Set([e.head, ...e.columns].map((b) => b.buffer as ArrayBuffer))] : [];
    try {
      port.postMessage(e, transfer);
    } catch {
      // a buffer that cannot be handed over (memory of WebAssembly's, say) is copied
      port.postMessage(e);
    }
  });
});
