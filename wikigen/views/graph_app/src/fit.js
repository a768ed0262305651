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
  /** maxSize: the biggest node size (sigma's size, in pixels at the default zoom). */
  constructor(renderer, culler, maxSize) {
    this.renderer = renderer;
    this.culler = culler;
    this.maxSize = maxSize;
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
    this._finish();
  }

  _finish() {
    this.attempts = 0; // fitted: later frames (the reader's) are left alone
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
    // The nodes' extremes (the corners of sigma's box around their centres), with a disc as big
    // as the biggest: O(1), not a pass over every node.
    const bbox = renderer.getBBox();
    if (!bbox || !renderer.getGraph().order) return this._finish();
    const r = renderer.scaleSize(this.maxSize);
    const a = renderer.graphToViewport({ x: bbox.x[0], y: bbox.y[0] });
    const b = renderer.graphToViewport({ x: bbox.x[1], y: bbox.y[1] });
    for (const px of [a.x, b.x]) x.push({ a: px - cx, lo: -r, hi: r });
    for (const py of [a.y, b.y]) y.push({ a: py - cy, lo: -r, hi: r });

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
