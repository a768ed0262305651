// The one-hop highlight (V4) drawn on a canvas of its own above sigma's labels: a veil in the
// page's colour fades the whole graph, and the highlighted concepts, the edges between the active
// one and its neighbours, and their labels are drawn on it. Nothing of sigma's is reprocessed or
// redrawn on hover, so a highlight costs what its few nodes cost, not what the graph costs (at
// 20,000 concepts, re-running sigma's reducers over every node and edge took most of a hover).
import { LabelCuller } from "./labels.js";

const LAYER = "wikigenVeil";

/** The discs of the highlighted nodes, as the label culler's obstacles (DiscIndex's interface). */
class DiscList {
  constructor(discs) {
    this.discs = discs;
  }

  *meeting(box, except) {
    for (const disc of this.discs) {
      if (disc.id === except) continue;
      const dx = disc.x - Math.max(box.x0, Math.min(disc.x, box.x1));
      const dy = disc.y - Math.max(box.y0, Math.min(disc.y, box.y1));
      if (dx * dx + dy * dy < disc.r * disc.r) yield disc;
    }
  }
}

export class Veil {
  /** maxLabels: above this many highlighted concepts, only the biggest get a label. */
  constructor(renderer, colors, maxLabels) {
    this.renderer = renderer;
    this.graph = renderer.getGraph();
    this.colors = colors;
    this.maxLabels = maxLabels;
    this.active = null;
    this.nodes = null;
    this.edges = null;
    this.culler = new LabelCuller();
    renderer.createCanvasContext(LAYER, { beforeLayer: "hovers", style: { pointerEvents: "none" } });
    renderer.resize(true);
    this.context = renderer.getCanvases()[LAYER].getContext("2d");
    // sigma's own labels would show through the veil: that canvas is hidden while it is up (the
    // highlighted concepts' labels are drawn on the veil).
    this.labels = renderer.getCanvases().labels;
    this.draw = this.draw.bind(this);
    renderer.on("afterRender", this.draw);
  }

  /** Highlight `active` with the nodes of `nodes` (a Set, `active` included) and `edges`. */
  show(active, nodes, edges) {
    this.active = active;
    this.nodes = nodes;
    this.edges = edges;
    if (this.labels) this.labels.style.visibility = "hidden";
    this.draw();
  }

  hide() {
    this.active = this.nodes = this.edges = null;
    if (this.labels) this.labels.style.visibility = "";
    this.draw();
  }

  /** The label boxes drawn on the veil (stage pixels); none while nothing is highlighted. */
  boxes() {
    return this.nodes ? this.culler.boxes : [];
  }

  draw() {
    const { renderer, graph, context, colors } = this;
    const { width, height } = renderer.getDimensions();
    context.clearRect(0, 0, width, height);
    this.culler.reset();
    if (!this.nodes) return;
    context.fillStyle = colors.veil;
    context.fillRect(0, 0, width, height);

    const at = (node) => renderer.graphToViewport(graph.getNodeAttributes(node));
    context.strokeStyle = colors.focusEdge;
    context.lineCap = "round";
    for (const edge of this.edges) {
      const [source, target] = graph.extremities(edge);
      const a = at(source);
      const b = at(target);
      context.lineWidth = renderer.scaleSize(graph.getEdgeAttribute(edge, "size") ?? 1);
      context.beginPath();
      context.moveTo(a.x, a.y);
      context.lineTo(b.x, b.y);
      context.stroke();
    }
    const discs = [];
    for (const node of this.nodes) {
      const attributes = graph.getNodeAttributes(node);
      const p = renderer.graphToViewport(attributes);
      const r = renderer.scaleSize(attributes.size);
      discs.push({ id: node, x: p.x, y: p.y, r, size: attributes.size, label: attributes.label });
      context.fillStyle = attributes.color;
      context.beginPath();
      context.arc(p.x, p.y, r, 0, 2 * Math.PI);
      context.fill();
    }

    // Labels: the active concept first, then the biggest; never on one another or on a disc.
    const settings = renderer.getSettings();
    const labelled = discs
      .filter((d) => d.label)
      .sort((a, b) => (a.id === this.active ? -1 : b.id === this.active ? 1 : b.size - a.size || (a.id < b.id ? -1 : 1)))
      .slice(0, this.nodes.size <= this.maxLabels ? discs.length : this.maxLabels);
    this.culler.renderer = renderer;
    this.culler.discs = new DiscList(discs);
    this.culler.halo = colors.halo;
    const draw = this.culler.drawer();
    for (const d of labelled) draw(context, { key: d.id, label: d.label, x: d.x, y: d.y, size: d.r }, settings);
  }
}
