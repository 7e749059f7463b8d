import { it } from 'vitest';
import { fileSource } from '../../test/files';
import { openSource } from '../source';
import { streamJson } from '../json-stream';
it('bench', async () => {
  for (let k = 0; k < 2; k++) {
  let t0 = performance.now();
  let src = await openSource(fileSource('/work/main/fixtures/samples/baseline/node_trace.1.log.gz'));
  let bytes = 0;
  for await (const c of src.chunks()) bytes += c.length;
  console.log('gunzip only', bytes, performance.now() - t0);
  t0 = performance.now();
  src = await openSource(fileSource('/work/main/fixtures/samples/baseline/node_trace.1.log.gz'));
  let n = 0;
  const r = await streamJson(src.chunks(), { element() { n++; } }, 'x');
  console.log('streamJson', n, performance.now() - t0);
  }
});
