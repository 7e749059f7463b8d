// A "hello world" HTTP server for trying `flamelens record` (it listens on $PORT). With --wrap,
// every request first goes through a wrapper that does synchronous work, as an APM agent's
// instrumentation does, so the two variants differ by a known cost.
import http from 'node:http';

function hello(req, res) {
  res.setHeader('content-type', 'application/json');
  res.end('{"hello":"world"}');
}

function instrument(handler) {
  return function traced(req, res) {
    let span = 0;
    for (let i = 0; i < 100000; i++) span = (span + i * 31) % 1000003;
    res.setHeader('x-span', String(span));
    return handler(req, res);
  };
}

const handler = process.argv.includes('--wrap') ? instrument(hello) : hello;
http.createServer(handler).listen(Number(process.env.PORT) || 3000, '127.0.0.1');
