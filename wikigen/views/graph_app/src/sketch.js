// The edges of a big graph on its first frame (issue 13: the first frame at 20,000 concepts),
// drawn on a canvas from graph.json's columns while graphology and sigma do not hold them yet:
// indexing 40,000 edges was two thirds of the first frame. Drawn as the veil draws its edges
// (veil.js), one path per thickness, and redrawn on every frame until the edges are in sigma.
const LAYER = "wikigenEdgeSketch";

export class EdgeSketch {
  /** edges: { ids, source, target, size } (data.js); color: the theme's edge colour. */
  constructor(renderer, edges, color) {
    this.renderer = renderer;
    this.edges = edges;
    this.color = color;
    renderer.createCanvasContext(LAYER, { beforeLayer: "edges", style: { pointerEvents: "none" } });
    renderer.resize(true);
    this.context = renderer.getCanvases()[LAYER].getContext("2d");
    this.draw = this.draw.bind(this);
    renderer.on("afterRender", this.draw);
    this.draw();
  }

  draw() {
    const { renderer, context, edges } = this;
    const { width, height } = renderer.getDimensions();
    context.clearRect(0, 0, width, height);
    const graph = renderer.getGraph();
    const at = (i) => renderer.graphToViewport(graph.getNodeAttributes(edges.ids[i]));
    const bySize = new Map();
    for (let e = 0; e < edges.source.length; e++) {
      const size = edges.size[e];
      if (!bySize.has(size)) bySize.set(size, []);
      bySize.get(size).push(e);
    }
    context.strokeStyle = this.color;
    context.lineCap = "round";
    for (const [size, members] of bySize) {
      context.lineWidth = renderer.scaleSize(size);
      context.beginPath();
      for (const e of members) {
        const a = at(edges.source[e]);
        const b = at(edges.target[e]);
        context.moveTo(a.x, a.y);
        context.lineTo(b.x, b.y);
      }
      context.stroke();
    }
  }

  /** The edges are in sigma now: it draws them from its next frame on. */
  remove() {
    this.renderer.off("afterRender", this.draw);
    this.renderer.killLayer(LAYER);
  }
}
