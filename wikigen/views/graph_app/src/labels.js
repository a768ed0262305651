// Labels never overlap (issue 13.4): sigma picks candidate labels with its grid, and this drawer
// draws one only when its box is free on this frame, so at any zoom no two drawn labels overlap.
// Candidates come biggest node first in each grid cell, so the concepts with the most relations
// keep their labels. The drawn boxes (viewport pixels) are kept for tests and benchmarks.
import { drawDiscNodeLabel } from "sigma/rendering";

const CELL = 64; // px: the spatial hash that keeps each check to a few boxes
const MARGIN = 2; // px of air around a label

export class LabelCuller {
  constructor() {
    this.reset();
  }

  reset() {
    this.cells = new Map();
    this.boxes = [];
  }

  /** The box sigma's drawDiscNodeLabel fills for this node (text from x + size + 3, baseline y + size/3). */
  static box(context, data, settings) {
    const size = settings.labelSize;
    context.font = `${settings.labelWeight} ${size}px ${settings.labelFont}`;
    const width = context.measureText(data.label).width;
    const left = data.x + data.size + 3;
    const baseline = data.y + size / 3;
    return { label: data.label, x0: left, y0: baseline - size, x1: left + width, y1: baseline + 0.3 * size };
  }

  *_cells(box) {
    for (let i = Math.floor((box.x0 - MARGIN) / CELL); i <= Math.floor((box.x1 + MARGIN) / CELL); i++) {
      for (let j = Math.floor((box.y0 - MARGIN) / CELL); j <= Math.floor((box.y1 + MARGIN) / CELL); j++) {
        yield `${i},${j}`;
      }
    }
  }

  free(box) {
    for (const key of this._cells(box)) {
      for (const other of this.cells.get(key) ?? []) {
        if (box.x0 < other.x1 + MARGIN && other.x0 < box.x1 + MARGIN && box.y0 < other.y1 + MARGIN && other.y0 < box.y1 + MARGIN) {
          return false;
        }
      }
    }
    return true;
  }

  take(box) {
    this.boxes.push(box);
    for (const key of this._cells(box)) {
      if (!this.cells.has(key)) this.cells.set(key, []);
      this.cells.get(key).push(box);
    }
  }

  /** A defaultDrawNodeLabel for sigma. */
  drawer() {
    return (context, data, settings) => {
      if (!data.label) return;
      const box = LabelCuller.box(context, data, settings);
      if (!this.free(box)) return;
      this.take(box);
      drawDiscNodeLabel(context, data, settings);
    };
  }
}
