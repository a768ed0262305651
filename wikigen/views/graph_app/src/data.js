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

/**
 * Build the graph. Returns { graph, needsLayout, concepts, relations }: needsLayout is true when
 * any node came without precomputed x/y (those nodes start from a seeded position and ForceAtlas2
 * runs). Graph attributes hold only what sigma draws: sigma copies them for every node and edge on
 * each highlight, so the concept records (by node id) and the relations (by edge id) live beside.
 */
export function buildGraph(json) {
  const graph = new Graph({ type: "undirected", multi: false, allowSelfLoops: false });
  const nodes = Array.isArray(json?.nodes) ? json.nodes : [];
  const edges = Array.isArray(json?.edges) ? json.edges : [];
  const radius = 10 * Math.sqrt(Math.max(nodes.length, 1));
  const maxSize = maxNodeSize(nodes.length);
  let maxDegree = 1;
  for (const node of nodes) if (isNumber(node?.degree)) maxDegree = Math.max(maxDegree, node.degree);

  const concepts = new Map();
  const relations = new Map();
  let needsLayout = false;
  for (const node of nodes) {
    if (typeof node?.id !== "string" || graph.hasNode(node.id)) continue;
    const degree = isNumber(node.degree) ? node.degree : 0;
    let position = { x: node.x, y: node.y };
    if (!isNumber(node.x) || !isNumber(node.y)) {
      needsLayout = true;
      position = seededPosition(node.id, radius);
    }
    graph.addNode(node.id, {
      ...position,
      label: typeof node.label === "string" && node.label !== "" ? node.label : node.id,
      size: MIN_NODE_SIZE + (maxSize - MIN_NODE_SIZE) * Math.sqrt(degree / maxDegree),
      color: nodeColor(node),
      // A community is named by a member: its label is always a candidate (culling still applies).
      // So is an isolated concept's: the band of isolated concepts says when (band.js).
      forceLabel: degree === 0 || node.community === node.id,
    });
    concepts.set(node.id, node);
  }

  for (const edge of edges) {
    const { source, target } = edge ?? {};
    if (!graph.hasNode(source) || !graph.hasNode(target) || source === target) continue;
    if (graph.hasEdge(source, target)) continue;
    const weight = isNumber(edge.weight) && edge.weight > 0 ? edge.weight : 1;
    const key = typeof edge.id === "string" ? edge.id : `${source}|${target}`;
    if (graph.hasEdge(key)) continue;
    graph.addUndirectedEdgeWithKey(key, source, target, {
      weight,
      size: Math.min(0.6 + 0.6 * Math.log2(1 + weight), 4),
    });
    relations.set(key, Array.isArray(edge.relations) ? edge.relations : []);
  }
  return { graph, needsLayout, concepts, relations };
}

/** "Pod —runs on→ Node" for each relation of an aggregated edge, in the order graph.json gives. */
export function describeRelations(graph, relations = []) {
  const label = (id) => (graph.hasNode(id) ? graph.getNodeAttribute(id, "label") : String(id));
  return relations.map((r) => `${label(r.subject)} —${r.predicate}→ ${label(r.object)}`);
}
