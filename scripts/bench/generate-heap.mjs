// A big V8 heap snapshot grown from a real one (the ddtrace run's snapshot after 10,000 requests,
// fixtures/samples/ddtrace/heap/after.heapsnapshot.gz): its object graph repeated, the way the
// same server holding more would look. Each copy gets nodes of its own (ordinals, ids, the nodes'
// and edges' string indices and the locations' object indices moved on by one copy's worth) and
// strings of its own (the sample's strings table again, as a bigger heap holds more strings); the
// synthetic root stays one node, its edges (to each copy's GC roots and globals) repeated per copy.
// Written as V8 writes it (a node or an edge per line), in pieces of a few MB, with the places
// where it can be cut into valid JSON texts of at most PIECE_BYTES for the JSON.parse limit.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Pieces, Writer } from './generate.mjs';

const SAMPLE = new URL('../../fixtures/samples/ddtrace/heap/after.heapsnapshot.gz', import.meta.url);

function loadSample() {
  const s = JSON.parse(gunzipSync(readFileSync(SAMPLE)).toString('utf8'));
  const meta = s.snapshot.meta;
  const nf = meta.node_fields;
  const ef = meta.edge_fields;
  const edgeTypes = meta.edge_types[ef.indexOf('type')];
  // element and hidden edges are named by an index, the others by a string
  const numbered = new Set(['element', 'hidden'].map((t) => edgeTypes.indexOf(t)));
  let maxId = 0;
  for (let i = nf.indexOf('id'); i < s.nodes.length; i += nf.length) maxId = Math.max(maxId, s.nodes[i]);
  return {
    s,
    NF: nf.length,
    EF: ef.length,
    idField: nf.indexOf('id'),
    nameField: nf.indexOf('name'),
    edgeCountField: nf.indexOf('edge_count'),
    edgeType: ef.indexOf('type'),
    edgeName: ef.indexOf('name_or_index'),
    toNode: ef.indexOf('to_node'),
    numbered,
    // even, so that ids keep their parity (V8's heap objects have odd ids)
    idBase: maxId + 1 + ((maxId + 1) % 2),
    nodeCount: s.nodes.length / nf.length,
    rootEdges: s.nodes[nf.indexOf('edge_count')],
  };
}

/** Copy `c`'s node ordinal for the sample's ordinal `o` (the root, 0, is shared). */
const ordinal = (g, c, o) => (o === 0 ? 0 : 1 + c * (g.nodeCount - 1) + (o - 1));

function nodeLine(g, c, o) {
  const { s, NF } = g;
  const v = s.nodes.slice(o * NF, (o + 1) * NF);
  // later copies' ids follow the sample's largest (some are addresses, far above the rest)
  if (c > 0) v[g.idField] = g.idBase + 2 * ((c - 1) * g.nodeCount + o) + (v[g.idField] % 2);
  v[g.nameField] += c * s.strings.length;
  return v.join(',');
}

function edgeLine(g, c, e) {
  const { s, EF } = g;
  const v = s.edges.slice(e * EF, (e + 1) * EF);
  if (!g.numbered.has(v[g.edgeType])) v[g.edgeName] += c * s.strings.length;
  v[g.toNode] = ordinal(g, c, v[g.toNode] / g.NF) * g.NF;
  return v.join(',');
}

/**
 * Bytes copy `c` adds: its nodes, edges, strings and locations, a line each (later copies' ids,
 * ordinals and string indices have more digits than the sample's).
 */
function copyBytes(g, c) {
  const { s } = g;
  let n = 0;
  for (let o = 1; o < g.nodeCount; o++) n += nodeLine(g, c, o).length + 2;
  for (let e = 0; e < s.edges.length / g.EF; e++) n += edgeLine(g, c, e).length + 2;
  return n + Buffer.byteLength(JSON.stringify(s.strings)) + s.strings.length + 2 * s.locations.length;
}

/**
 * Writes a snapshot of about `target` bytes to `path`: { path, bytes, kind, nodes, edges, copies,
 * pieces }. Options: `copies`, that many copies instead; `pieceBytes`, the pieces' largest size.
 */
export function generateHeapSnapshot(path, target, { copies: exactCopies, pieceBytes } = {}) {
  const g = loadSample();
  const { s, NF } = g;
  const rough = Math.max(1, Math.round(target / copyBytes(g, 0)));
  const copies = exactCopies ?? Math.max(1, Math.round(target / copyBytes(g, Math.ceil(rough / 2))));
  const nodeCount = 1 + copies * (g.nodeCount - 1);
  const edgeCount = copies * (s.edges.length / g.EF);
  const snapshot = { ...s.snapshot, node_count: nodeCount, edge_count: edgeCount };
  const w = new Writer(path);
  const pieces = new Pieces(w, `{"snapshot":${JSON.stringify(snapshot)},\n"nodes":[`, pieceBytes);
  pieces.head = '{"nodes":[';
  const root = s.nodes.slice(0, NF);
  root[g.edgeCountField] = g.rootEdges * copies;
  pieces.element(root.join(','));
  for (let c = 0; c < copies; c++) for (let o = 1; o < g.nodeCount; o++) pieces.element(`\n${nodeLine(g, c, o)}`);
  pieces.nextArray('],\n"edges":[', '{"edges":[');
  for (let c = 0; c < copies; c++) for (let e = 0; e < g.rootEdges; e++) pieces.element(`\n${edgeLine(g, c, e)}`);
  const edges = s.edges.length / g.EF;
  for (let c = 0; c < copies; c++) for (let e = g.rootEdges; e < edges; e++) pieces.element(`\n${edgeLine(g, c, e)}`);
  pieces.nextArray('],\n"trace_function_infos":[],\n"trace_tree":[],\n"samples":[],\n"locations":[', '{"locations":[');
  const LF = s.snapshot.meta.location_fields.length;
  for (let c = 0; c < copies; c++)
    for (let l = 0; l < s.locations.length; l += LF) {
      const v = s.locations.slice(l, l + LF);
      v[0] = ordinal(g, c, v[0] / NF) * NF;
      pieces.element(`\n${v.join(',')}`);
    }
  pieces.nextArray('],\n"strings":[', '{"strings":[');
  for (let c = 0; c < copies; c++) for (const str of s.strings) pieces.element(`\n${JSON.stringify(str)}`);
  w.write(']}');
  pieces.close(w.bytes, '');
  w.close();
  return { path, bytes: w.bytes, kind: 'json', nodes: nodeCount, edges: edgeCount, copies, pieces: pieces.list };
}
