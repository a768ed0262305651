// The initial camera shows the whole graph with its labels (issue 13.4): sigma frames the nodes
// only, so a label at the right edge (the band of isolated concepts) was cut by the canvas. After a
// frame, if a drawn label leaves the stage, the camera zooms out and moves just enough that every
// drawn label and every node's disc is inside, then the next frame is checked again (labels are a
// fixed size in pixels, so zooming out changes which ones are drawn, a little).

const MARGIN = 4; // px kept free at the stage's edges
const ATTEMPTS = 4;

/**
 * The largest zoom factor u ≤ 1 (and the shift d) that brings every interval
 * [a·u + lo, a·u + hi] (a: an anchor relative to the stage's centre) inside [-half, half].
 */
function fitAxis(items, half) {
  const span = (u) => {
    let min = Infinity;
    let max = -Infinity;
    for (const { a, lo, hi } of items) {
      min = Math.min(min, a * u + lo);
      max = Math.max(max, a * u + hi);
    }
    return { min, max };
  };
  const fits = (u) => {
    const { min, max } = span(u);
    return max - min <= 2 * half;
  };
  let u = 1;
  if (!fits(1)) {
    let low = 0.02;
    let high = 1;
    for (let i = 0; i < 30; i++) {
      const mid = (low + high) / 2;
      if (fits(mid)) low = mid;
      else high = mid;
    }
    u = low;
  }
  return u;
}

function shift(items, u, half) {
  let min = Infinity;
  let max = -Infinity;
  for (const { a, lo, hi } of items) {
    min = Math.min(min, a * u + lo);
    max = Math.max(max, a * u + hi);
  }
  if (min >= -half && max <= half) return 0; // already inside: do not move
  return -(min + max) / 2;
}

export class CameraFit {
  constructor(renderer, culler) {
    this.renderer = renderer;
    this.culler = culler;
    this.attempts = 0;
    this.resolve = null;
    this.onRender = this.onRender.bind(this);
    renderer.on("afterRender", this.onRender);
  }

  /** Check the next frames; resolves once the drawn labels are inside the stage (or given up). */
  request() {
    this.attempts = ATTEMPTS;
    const done = new Promise((resolve) => {
      const previous = this.resolve;
      this.resolve = () => {
        previous?.();
        resolve();
      };
    });
    this.renderer.scheduleRender();
    return done;
  }

  cancel() {
    this.attempts = 0;
    this._finish();
  }

  _finish() {
    const resolve = this.resolve;
    this.resolve = null;
    resolve?.();
  }

  onRender() {
    if (this.attempts === 0) return;
    this.attempts -= 1;
    const renderer = this.renderer;
    const { width, height } = renderer.getDimensions();
    if (!width || !height) return this._finish();
    const cx = width / 2;
    const cy = height / 2;
    const x = [];
    const y = [];
    for (const box of this.culler.boxes) {
      const { x: nx, y: ny } = box.node;
      x.push({ a: nx - cx, lo: box.x0 - nx, hi: box.x1 - nx });
      y.push({ a: ny - cy, lo: box.y0 - ny, hi: box.y1 - ny });
    }
    // The nodes' extremes, with the biggest disc (sigma frames nodes by their centres).
    let r = 0;
    const extremes = { x0: Infinity, x1: -Infinity, y0: Infinity, y1: -Infinity };
    renderer.getGraph().forEachNode((node) => {
      const data = renderer.getNodeDisplayData(node);
      if (!data || data.hidden) return;
      const p = renderer.framedGraphToViewport(data);
      r = Math.max(r, renderer.scaleSize(data.size));
      extremes.x0 = Math.min(extremes.x0, p.x);
      extremes.x1 = Math.max(extremes.x1, p.x);
      extremes.y0 = Math.min(extremes.y0, p.y);
      extremes.y1 = Math.max(extremes.y1, p.y);
    });
    if (extremes.x0 === Infinity) return this._finish();
    for (const px of [extremes.x0, extremes.x1]) x.push({ a: px - cx, lo: -r, hi: r });
    for (const py of [extremes.y0, extremes.y1]) y.push({ a: py - cy, lo: -r, hi: r });

    const halfX = cx - MARGIN;
    const halfY = cy - MARGIN;
    const u = Math.min(fitAxis(x, halfX), fitAxis(y, halfY));
    const dx = shift(x, u, halfX);
    const dy = shift(y, u, halfY);
    if (u === 1 && dx === 0 && dy === 0) return this._finish();
    // The point now at (cx - dx/u, cy - dy/u) goes to the stage's centre, and the view zooms out by 1/u.
    const camera = renderer.getCamera();
    const state = camera.getState();
    const centre = renderer.viewportToFramedGraph({ x: cx - dx / u, y: cy - dy / u });
    camera.setState({ x: centre.x, y: centre.y, ratio: state.ratio / u });
    if (this.attempts === 0) this._finish();
  }
}
