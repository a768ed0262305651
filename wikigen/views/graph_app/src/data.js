// graph.json (kind "semantic", V2) → a graphology graph ready for sigma.
import Graph from "graphology";

import { communityColor } from "./palette.js";

// Node size by degree, in screen pixels at the overview; large graphs get smaller nodes.
const MIN_NODE_SIZE = 2.5;

function maxNodeSize(order) {
  return 4 + 12 * Math.min(1, Math.sqrt(500 / Math.max(order, 1)));
}

// FNV-1a: a node's seeded start position depends on its id only, so adding a concept does not
// move every other node's starting point.
function hash32(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function mulberry32(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function seededPosition(id, radius) {
  const random = mulberry32(hash32(id));
  const angle = random() * 2 * Math.PI;
  const distance = radius * Math.sqrt(random());
  return { x: distance * Math.cos(angle), y: distance * Math.sin(angle) };
}

const isNumber = (value) => typeof value === "number" && Number.isFinite(value);

// V3: the colour graph.json gives (from the community's name, so it is stable across builds), else
// one from the palette by community number.
const COLOR = /^#[0-9a-f]{6}$/i;
const nodeColor = (node) => (typeof node.color === "string" && COLOR.test(node.color) ? node.color : communityColor(node.community));

// Every attribute sigma gives a node or an edge a default for (its applyNodeDefaults and
// applyEdgeDefaults), present from the start: sigma copies the attributes of each of the 60,000
// items of a big graph and then fills in the missing ones, and an object that gains keys one by
// one after its copy changes shape each time (that was a third of sigma's first frame). An empty
// colour or label is sigma's default (the theme's edge colour, no label).
function nodeAttributes(x, y, label, size, color, forceLabel) {
  return { x, y, label, size, color, hidden: false, highlighted: false, forceLabel, type: "circle", zIndex: 0 };
}

function edgeAttributes(weight) {
  const size = Math.min(0.6 + 0.6 * Math.log2(1 + weight), 4);
  return { weight, color: "", label: "", size, hidden: false, forceLabel: false, type: "line", zIndex: 0 };
}

/**
 * Build the graph from graph.json, in either of its forms (wikigen/views/graph.py, graph_files):
 * one record per node and edge, or columns (a big graph the build placed; its details come in a
 * second file, see readDetails). Returns { graph, needsLayout, components, details }: needsLayout
 * is true when any node came without precomputed x/y (those nodes start from a seeded position
 * and ForceAtlas2 runs); components maps a node to its connected component; details is
 * { concepts, relations } (the side panel's concept records by node id, the relations by edge
 * id), or null until readDetails gives it; isolated(id) says whether a concept has no relation;
 * addEdges, when not null, adds the edges (columns: after the first frame, which draws `sketch`:
 * { ids, source, target, size }). Graph attributes hold only what sigma draws: sigma
 * copies them for every node and edge when it processes the graph.
 */
export function buildGraph(json) {
  return json?.format === "columns" ? fromColumns(json) : fromRecords(json);
}

function fromRecords(json) {
  const graph = new Graph({ type: "undirected", multi: false, allowSelfLoops: false });
  const nodes = Array.isArray(json?.nodes) ? json.nodes : [];
  const edges = Array.isArray(json?.edges) ? json.edges : [];
  const radius = 10 * Math.sqrt(Math.max(nodes.length, 1));
  const maxSize = maxNodeSize(nodes.length);
  let maxDegree = 1;
  for (const node of nodes) if (isNumber(node?.degree)) maxDegree = Math.max(maxDegree, node.degree);

  const concepts = new Map();
  const relations = new Map();
  const components = new Map();
  let needsLayout = false;
  for (const node of nodes) {
    if (typeof node?.id !== "string" || graph.hasNode(node.id)) continue;
    const degree = isNumber(node.degree) ? node.degree : 0;
    let position = { x: node.x, y: node.y };
    if (!isNumber(node.x) || !isNumber(node.y)) {
      needsLayout = true;
      position = seededPosition(node.id, radius);
    }
    const label = typeof node.label === "string" && node.label !== "" ? node.label : node.id;
    const size = MIN_NODE_SIZE + (maxSize - MIN_NODE_SIZE) * Math.sqrt(degree / maxDegree);
    // A community is named by a member: its label is always a candidate (culling still applies).
    // So is an isolated concept's: the band of isolated concepts says when (band.js).
    const forceLabel = degree === 0 || node.community === node.id;
    graph.addNode(node.id, nodeAttributes(position.x, position.y, label, size, nodeColor(node), forceLabel));
    concepts.set(node.id, node);
    components.set(node.id, node.component);
  }

  for (const edge of edges) {
    const { source, target } = edge ?? {};
    if (!graph.hasNode(source) || !graph.hasNode(target) || source === target) continue;
    if (graph.hasEdge(source, target)) continue;
    const weight = isNumber(edge.weight) && edge.weight > 0 ? edge.weight : 1;
    const key = typeof edge.id === "string" ? edge.id : `${source}|${target}`;
    if (graph.hasEdge(key)) continue;
    graph.addUndirectedEdgeWithKey(key, source, target, edgeAttributes(weight));
    relations.set(key, Array.isArray(edge.relations) ? edge.relations : []);
  }
  const isolated = (id) => graph.degree(id) === 0;
  return { graph, needsLayout, components, details: { concepts, relations }, isolated, addEdges: null, sketch: null };
}

// The columns come from the build (graph_files), whole and consistent: no record to check one by
// one, no duplicate to skip. Node i is ids[i]; edge i's key is String(i), as in readDetails.
function fromColumns(json) {
  const graph = new Graph({ type: "undirected", multi: false, allowSelfLoops: false });
  const { id: ids, label, x, y, degree, component, color, community } = json.nodes;
  const { source, target, weight } = json.edges;
  const radius = 10 * Math.sqrt(Math.max(ids.length, 1));
  const maxSize = maxNodeSize(ids.length);
  const palette = json.colors.map((c) => (typeof c === "string" && COLOR.test(c) ? c : communityColor(null)));
  let maxDegree = 1;
  for (const d of degree) if (d > maxDegree) maxDegree = d;

  const components = new Map();
  let needsLayout = false;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    let position = { x: x[i], y: y[i] };
    if (!isNumber(x[i]) || !isNumber(y[i])) {
      needsLayout = true;
      position = seededPosition(id, radius);
    }
    const size = MIN_NODE_SIZE + (maxSize - MIN_NODE_SIZE) * Math.sqrt(degree[i] / maxDegree);
    const forceLabel = degree[i] === 0 || community[i] === i; // as in fromRecords
    graph.addNode(id, nodeAttributes(position.x, position.y, label[i] || id, size, palette[color[i]], forceLabel));
    components.set(id, component[i]);
  }
  // The edges are added after the first frame (app.js): at 20,000 concepts they are two thirds of
  // what graphology and sigma index, and the first frame draws them from these columns instead.
  const addEdges = () => {
    for (let i = 0; i < source.length; i++) {
      graph.addUndirectedEdgeWithKey(String(i), ids[source[i]], ids[target[i]], edgeAttributes(weight[i]));
    }
  };
  const sketch = { ids, source, target, size: Array.from(weight, (w) => edgeAttributes(w).size) };
  let indexOf = null; // node id → its column index, made on the first question (not on the first frame)
  const isolated = (id) => {
    indexOf ??= new Map(ids.map((found, i) => [found, i]));
    return degree[indexOf.get(id)] === 0;
  };
  return { graph, needsLayout, components, details: null, isolated, addEdges, sketch };
}

/**
 * graph-details.json (the columns' second file) → { concepts, relations }: node i's record is the
 * details' nodes[i] with its id and label, edge i's relations its relations[i]. The graph's nodes
 * are in insertion order, and fromColumns adds node i i-th.
 */
export function readDetails(graph, json) {
  const concepts = new Map();
  const relations = new Map();
  let i = 0;
  graph.forEachNode((id, { label }) => {
    concepts.set(id, { id, label, ...(json?.nodes?.[i] ?? {}) });
    i += 1;
  });
  (json?.relations ?? []).forEach((found, edge) => relations.set(String(edge), Array.isArray(found) ? found : []));
  return { concepts, relations };
}

/** "Pod —runs on→ Node" for each relation of an aggregated edge, in the order graph.json gives. */
export function describeRelations(graph, relations = []) {
  const label = (id) => (graph.hasNode(id) ? graph.getNodeAttribute(id, "label") : String(id));
  return relations.map((r) => `${label(r.subject)} —${r.predicate}→ ${label(r.object)}`);
}
