import { it } from 'vitest';
import { importProfile } from '../import-profile';
it('big synthetic trace', async () => {
  const target = 1024 * 1024 * 1024; // bytes
  const enc = new TextEncoder();
  let produced = 0, i = 0, peak = 0;
  const src = {
    name: 'big.json',
    stream() {
      return new ReadableStream<Uint8Array>({
        pull(c) {
          if (produced >= target) { c.enqueue(enc.encode(']}')); c.close(); return; }
          const parts: string[] = [];
          for (let k = 0; k < 2000; k++, i++) {
            const ts = i * 10;
            const m = i % 6;
            let e: string;
            if (m === 0) e = `{"pid":1,"tid":1,"ts":${ts},"ph":"X","cat":"v8","name":"V8.GCScavenger","dur":5,"args":{}}`;
            else if (m === 1) e = `{"pid":1,"tid":1,"ts":${ts},"ph":"B","cat":"node,node.fs,node.fs.sync","name":"fs.sync.open","args":{}}`;
            else if (m === 2) e = `{"pid":1,"tid":1,"ts":${ts},"ph":"E","cat":"node,node.fs,node.fs.sync","name":"fs.sync.open","args":{}}`;
            else if (m === 3) e = `{"pid":1,"tid":1,"ts":${ts},"ph":"b","cat":"node,node.async_hooks","name":"PROMISE","id":"0x${i.toString(16)}","args":{"data":{"executionAsyncId":${i},"triggerAsyncId":${i - 1}}}}`;
            else if (m === 4) e = `{"pid":1,"tid":1,"ts":${ts},"ph":"e","cat":"node,node.async_hooks","name":"PROMISE","id":"0x${(i - 1).toString(16)}","args":{}}`;
            else e = `{"pid":1,"tid":1,"ts":${ts},"ph":"C","cat":"v8","name":"heap","args":{"used":${i}}}`;
            parts.push(e);
          }
          const s = (produced === 0 ? '{"traceEvents":[' : ',') + parts.join(',');
          const b = enc.encode(s);
          produced += b.length;
          if ((i & 0x3ffff) < 2000) peak = Math.max(peak, process.memoryUsage().heapUsed);
          c.enqueue(b);
        },
      });
    },
  };
  const t0 = performance.now();
  const p = await importProfile(src);
  console.log('events', i, 'MB', (produced / 1e6).toFixed(0), 'ms', (performance.now() - t0).toFixed(0), 'peak heap MB', (peak / 1e6).toFixed(0), 'rss MB', (process.memoryUsage().rss / 1e6).toFixed(0), 'nodes', p.tree.length, p.meta.warnings);
}, 600000);
