// Labels never overlap (issue 13.4): sigma picks candidate labels with its grid, and this drawer
// draws one only where its box is free on this frame — free of the labels drawn before it and of
// the disc of every node big enough to carry a label (sigma's labelRenderedSizeThreshold: in a small
// graph every node, in a big one the nodes that are more than dots) — trying the right of its node
// first, then the left, above, below and the corners. Candidates come biggest node first in each grid cell, so the concepts with the most
// relations keep their labels. The drawn boxes (viewport pixels) are kept for tests and benchmarks.

const CELL = 64; // px: the spatial hash that keeps each check to a few boxes
const MARGIN = 2; // px of air around a label
const GAP = 3; // px between a node's disc and its label (sigma's drawDiscNodeLabel uses 3 too)
const HALO = 3; // px: the outline in the page's colour around a label's letters
const DISC_CELLS = 128; // the disc index: cells along the longer side of the graph's box

export function labelFont(settings) {
  return `${settings.labelWeight} ${settings.labelSize}px ${settings.labelFont}`;
}

/** The ink of a label: its width and its extent above and below the baseline, in pixels. */
export function measureLabel(context, label) {
  const metrics = context.measureText(label);
  return {
    width: metrics.width,
    ascent: metrics.actualBoundingBoxAscent,
    descent: metrics.actualBoundingBoxDescent,
  };
}

const overlaps = (a, b, margin) =>
  a.x0 < b.x1 + margin && b.x0 < a.x1 + margin && a.y0 < b.y1 + margin && b.y0 < a.y1 + margin;

function discMeetsBox(disc, box) {
  const dx = disc.x - Math.max(box.x0, Math.min(disc.x, box.x1));
  const dy = disc.y - Math.max(box.y0, Math.min(disc.y, box.y1));
  return dx * dx + dy * dy < disc.r * disc.r;
}

/**
 * Every node's disc, indexed in graph coordinates (they change only when the graph's positions
 * do, not when the camera moves), and looked up for a box in viewport pixels. Read from the
 * graph's own attributes: nothing here draws hidden nodes or changes sizes in a reducer.
 */
class DiscIndex {
  constructor(renderer) {
    this.renderer = renderer;
    this.cells = new Map();
    this.maxSize = 0;
    const graph = renderer.getGraph();
    let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
    graph.forEachNode((_, { x, y }) => {
      minX = Math.min(minX, x); maxX = Math.max(maxX, x);
      minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    });
    this.origin = { x: minX, y: minY };
    this.cell = Math.max(maxX - minX, maxY - minY, 1e-9) / DISC_CELLS;
    graph.forEachNode((node, { x, y, size }) => {
      this.maxSize = Math.max(this.maxSize, size);
      const key = this._key(this._index(x, "x"), this._index(y, "y"));
      if (!this.cells.has(key)) this.cells.set(key, []);
      this.cells.get(key).push({ node, x, y, size });
    });
  }

  _index(value, axis) {
    return Math.floor((value - this.origin[axis]) / this.cell);
  }

  _key(i, j) {
    return i * 65536 + j; // a number: no string per node while indexing
  }

  /** The discs (viewport pixels) of at least `minRadius` that meet the box, other than `except`'s. */
  *meeting(box, except, minRadius) {
    const renderer = this.renderer;
    const reach = renderer.scaleSize(this.maxSize);
    const a = renderer.viewportToGraph({ x: box.x0 - reach, y: box.y0 - reach });
    const b = renderer.viewportToGraph({ x: box.x1 + reach, y: box.y1 + reach });
    const [i0, i1] = [this._index(Math.min(a.x, b.x), "x"), this._index(Math.max(a.x, b.x), "x")];
    const [j0, j1] = [this._index(Math.min(a.y, b.y), "y"), this._index(Math.max(a.y, b.y), "y")];
    if ((i1 - i0 + 1) * (j1 - j0 + 1) > 4 * this.cells.size) {
      // Zoomed far out: scanning the occupied cells is cheaper than the empty ones.
      for (const entries of this.cells.values()) yield* this._hits(entries, box, except, minRadius);
      return;
    }
    for (let i = i0; i <= i1; i++) {
      for (let j = j0; j <= j1; j++) {
        const entries = this.cells.get(this._key(i, j));
        if (entries) yield* this._hits(entries, box, except, minRadius);
      }
    }
  }

  *_hits(entries, box, except, minRadius) {
    for (const entry of entries) {
      if (entry.node === except) continue;
      const r = this.renderer.scaleSize(entry.size);
      if (r < minRadius) continue;
      const p = this.renderer.graphToViewport(entry);
      const disc = { x: p.x, y: p.y, r };
      if (discMeetsBox(disc, box)) yield disc;
    }
  }
}

export class LabelCuller {
  constructor() {
    this.renderer = null; // set by attach(): sigma draws its first frame inside its constructor
    this.halo = null; // the page's colour (palette.js), set by the app
    this.hidden = null; // (id) → true for a label this frame must not show (band.js)
    this.discs = null; // built on the first label of a frame after sigma processed the graph
    this.reset();
  }

  reset() {
    this.cells = new Map();
    this.boxes = [];
  }

  attach(renderer) {
    this.renderer = renderer;
    this.discs = null;
    renderer.on("beforeRender", () => this.reset());
    renderer.on("afterProcess", () => this.invalidate());
  }

  /** Sigma processed the graph (positions or sizes may have changed): index the discs again. */
  invalidate() {
    this.discs = null;
  }

  /**
   * The boxes a label may take around its node (viewport pixels), in order of preference: right
   * (where sigma puts it), left, above, below, then the four corners.
   */
  static placements(data, ink, fontSize) {
    const { x, y, size: r } = data;
    const { width, ascent, descent } = ink;
    // Baselines from the font size, not the ink, so that labels in a row line up (sigma's size / 3).
    const middle = y + fontSize / 3;
    const box = (left, baseline, side) => ({
      side,
      baseline,
      x0: left,
      x1: left + width,
      y0: baseline - ascent,
      y1: baseline + descent,
    });
    // Beside the disc's upper or lower edge: the text clears the node by half a line.
    const up = y - r / 2 - GAP;
    const down = y + r / 2 + GAP + 0.75 * fontSize;
    return [
      box(x + r + GAP, middle, "right"),
      box(x - r - GAP - width, middle, "left"),
      box(x - width / 2, y - r - GAP - 0.25 * fontSize, "above"),
      box(x - width / 2, y + r + GAP + 0.75 * fontSize, "below"),
      box(x + r / 2 + GAP, up, "upper right"),
      box(x + r / 2 + GAP, down, "lower right"),
      box(x - r / 2 - GAP - width, up, "upper left"),
      box(x - r / 2 - GAP - width, down, "lower left"),
    ];
  }

  _cellsOf(box) {
    const keys = [];
    for (let i = Math.floor((box.x0 - MARGIN) / CELL); i <= Math.floor((box.x1 + MARGIN) / CELL); i++) {
      for (let j = Math.floor((box.y0 - MARGIN) / CELL); j <= Math.floor((box.y1 + MARGIN) / CELL); j++) {
        keys.push(`${i},${j}`);
      }
    }
    return keys;
  }

  free(box, node) {
    for (const key of this._cellsOf(box)) {
      for (const other of this.cells.get(key) ?? []) if (overlaps(box, other, MARGIN)) return false;
    }
    if (!this.discs) this.discs = new DiscIndex(this.renderer);
    const minRadius = this.renderer.getSetting("labelRenderedSizeThreshold") ?? 0;
    for (const _ of this.discs.meeting(box, node, minRadius)) return false;
    return true;
  }

  take(box) {
    this.boxes.push(box);
    for (const key of this._cellsOf(box)) {
      if (!this.cells.has(key)) this.cells.set(key, []);
      this.cells.get(key).push(box);
    }
  }

  /** A defaultDrawNodeLabel for sigma. */
  drawer() {
    return (context, data, settings) => {
      // Not before attach(): sigma's first frame, drawn in its constructor, is drawn again at once
      // (fit.js), and its labels could not be checked against the nodes.
      if (!this.renderer || !data.label || this.hidden?.(data.key)) return;
      context.font = labelFont(settings);
      const ink = measureLabel(context, data.label);
      const box = LabelCuller.placements(data, ink, settings.labelSize).find((candidate) => this.free(candidate, data.key));
      if (!box) return;
      this.take({ ...box, id: data.key, label: data.label, node: { x: data.x, y: data.y, r: data.size } });
      const color = settings.labelColor.attribute
        ? data[settings.labelColor.attribute] || settings.labelColor.color || "#000"
        : settings.labelColor.color;
      if (this.halo) {
        // A halo in the page's colour keeps the text readable where it crosses edges or dots.
        context.strokeStyle = this.halo;
        context.lineWidth = HALO;
        context.lineJoin = "round";
        context.strokeText(data.label, box.x0, box.baseline);
      }
      context.fillStyle = color;
      context.fillText(data.label, box.x0, box.baseline);
    };
  }
}
