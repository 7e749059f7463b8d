/** Test helper: small heap snapshots written out as V8 writes them, from a list of nodes and edges. */

export interface TinyNode {
  type?: string;
  name: string;
  size: number;
  id?: number;
}
/** from, to (node indices), edge type, and the name (a property name, or an element index) */
export type TinyEdge = [from: number, to: number, type?: string, name?: string | number];

const NODE_TYPES = ['hidden', 'array', 'string', 'object', 'code', 'closure', 'regexp', 'number', 'native', 'synthetic'];
const EDGE_TYPES = ['context', 'element', 'property', 'internal', 'hidden', 'shortcut', 'weak'];

/**
 * The snapshot's JSON text. Node 0 is the root. `nodeFields` reorders the node fields (V8 has
 * changed them over the years; a reader must take them from the meta).
 */
export function tinySnapshot(
  nodes: TinyNode[],
  edges: TinyEdge[],
  nodeFields = ['type', 'name', 'id', 'self_size', 'edge_count', 'trace_node_id', 'detachedness'],
): string {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const str = (s: string) => {
    let i = index.get(s);
    if (i === undefined) index.set(s, (i = strings.push(s) - 1));
    return i;
  };
  const byFrom: TinyEdge[][] = nodes.map(() => []);
  for (const e of edges) byFrom[e[0]]!.push(e);
  const nodeValues: number[] = [];
  nodes.forEach((n, i) => {
    const v: Record<string, number> = {
      type: NODE_TYPES.indexOf(n.type ?? (i === 0 ? 'synthetic' : 'object')),
      name: str(n.name),
      id: n.id ?? i * 2 + 1,
      self_size: n.size,
      edge_count: byFrom[i]!.length,
      trace_node_id: 0,
      detachedness: 0,
    };
    for (const f of nodeFields) nodeValues.push(v[f]!);
  });
  const edgeValues: number[] = [];
  for (const list of byFrom) {
    for (const [, to, type = 'property', name = `p${to}`] of list) {
      edgeValues.push(EDGE_TYPES.indexOf(type), typeof name === 'number' ? name : str(name), to * nodeFields.length);
    }
  }
  const meta = {
    node_fields: nodeFields,
    node_types: nodeFields.map((f) => (f === 'type' ? NODE_TYPES : f === 'name' ? 'string' : 'number')),
    edge_fields: ['type', 'name_or_index', 'to_node'],
    edge_types: [EDGE_TYPES, 'string_or_number', 'node'],
    location_fields: ['object_index', 'script_id', 'line', 'column'],
  };
  return (
    `{"snapshot":{"meta":${JSON.stringify(meta)},"node_count":${nodes.length},"edge_count":${edgeValues.length / 3}},\n` +
    `"nodes":[${nodeValues.join(',')}],\n"edges":[${edgeValues.join(',')}],\n"locations":[],\n"strings":${JSON.stringify(strings)}}`
  );
}
