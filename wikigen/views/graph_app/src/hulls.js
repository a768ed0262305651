// V4: connected components drawn as translucent convex hulls behind the nodes. The hulls are
// computed in graph coordinates from the current (visual-only) layout and never leave the page.
import { polygonHull } from "d3-polygon";

const LAYER = "wikigenHulls";
const PADDING_PX = 14;

/** Convex hull (graph coordinates) of each component with at least two nodes. */
export function componentHulls(graph, components) {
  const groups = new Map();
  graph.forEachNode((node, attributes) => {
    const component = components.get(node);
    if (component === null || component === undefined) return;
    let points = groups.get(component);
    if (!points) groups.set(component, (points = []));
    points.push([attributes.x, attributes.y]);
  });
  const hulls = [];
  for (const points of groups.values()) {
    if (points.length < 2) continue; // a lone concept is its own group; a halo would add nothing
    hulls.push(points.length < 3 ? points : (polygonHull(points) ?? points));
  }
  return hulls;
}

/**
 * A canvas layer under sigma's edges. Redraws after each sigma render, but only when the camera,
 * the size or the hull geometry changed (a hover refresh costs nothing here).
 */
export class HullLayer {
  constructor(renderer, components, rgb) {
    this.renderer = renderer;
    this.components = components;
    this.hulls = [];
    this.drawnKey = "";
    this.version = 0;
    renderer.createCanvasContext(LAYER, { beforeLayer: "edges", style: { opacity: "0.13", pointerEvents: "none" } });
    renderer.resize(true);
    this.canvas = renderer.getCanvases()[LAYER];
    this.context = this.canvas.getContext("2d");
    this.color = `rgb(${rgb})`;
    this.draw = this.draw.bind(this);
    renderer.on("afterRender", this.draw);
  }

  update(graph) {
    this.hulls = componentHulls(graph, this.components);
    this.version += 1;
    this.draw();
    // Sigma re-frames moved nodes on its next render: draw again then, or the hulls keep the old frame.
    this.drawnKey = "";
  }

  draw() {
    const renderer = this.renderer;
    const { width, height } = renderer.getDimensions();
    const camera = renderer.getCamera().getState();
    const key = [this.version, width, height, camera.x, camera.y, camera.ratio, camera.angle].join(",");
    if (key === this.drawnKey) return;
    this.drawnKey = key;

    const context = this.context;
    context.clearRect(0, 0, width, height);
    context.fillStyle = this.color;
    context.strokeStyle = this.color;
    context.lineWidth = 2 * PADDING_PX;
    context.lineJoin = "round";
    context.lineCap = "round";
    for (const hull of this.hulls) {
      context.beginPath();
      hull.forEach(([x, y], i) => {
        const p = renderer.graphToViewport({ x, y });
        if (i === 0) context.moveTo(p.x, p.y);
        else context.lineTo(p.x, p.y);
      });
      context.closePath();
      context.fill();
      context.stroke();
    }
  }
}
