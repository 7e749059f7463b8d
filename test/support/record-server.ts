/**
 * The HTTP server the tests of `flamelens record` record (node/cli/record.test.ts,
 * e2e/record.spec.ts): it listens on $PORT on 127.0.0.1 and answers "ok". With --agent every
 * request first runs a wrapper's synchronous work (`agentWrap`), as an APM agent's instrumentation
 * does; with --crash the first request ends the process with code 3.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SERVER = `
const http = require('node:http');
function agentWrap(handler) {
  return function agentWrap(req, res) {
    let x = 0;
    for (let i = 0; i < 300000; i++) x += i % 7;
    res.setHeader('x-agent', String(x));
    return handler(req, res);
  };
}
let handler = (req, res) => res.end('ok');
if (process.argv.includes('--agent')) handler = agentWrap(handler);
if (process.argv.includes('--crash')) handler = () => process.exit(3);
http.createServer(handler).listen(Number(process.env.PORT), '127.0.0.1');
`;

/** Writes the server into `dir` (a CommonJS `server.js`) and gives its path. */
export function writeRecordServer(dir: string): string {
  const path = join(dir, 'server.js');
  writeFileSync(path, SERVER);
  return path;
}
