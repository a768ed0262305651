// ForceAtlas2 in its web worker, from the seeded start positions, stopped after a bounded number of
// iterations or a bounded time, whichever comes first. The layout is visual only (V4): positions
// stay in the page and are never written back.
import { inferSettings } from "graphology-layout-forceatlas2";
import FA2Layout from "graphology-layout-forceatlas2/worker";

const MAX_ITERATIONS = 500;

function maxMilliseconds(order) {
  return Math.min(1500 + order / 2, 12000);
}

// Each copy makes sigma re-index the drawn graph: rarer for large graphs.
function syncMilliseconds(order) {
  return Math.max(400, order / 20);
}

/**
 * The isolated concepts in columns to the right of the laid-out ones, in label order, top to
 * bottom; a column is as tall as the laid-out part (at least the square root of their number).
 */
function bandPositions(shadow, isolated) {
  const band = new Map();
  if (isolated.length === 0) return band;
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  shadow.forEachNode((_, a) => {
    minX = Math.min(minX, a.x); maxX = Math.max(maxX, a.x);
    minY = Math.min(minY, a.y); maxY = Math.max(maxY, a.y);
  });
  if (shadow.order === 0) [minX, maxX, minY, maxY] = [0, 0, 0, 0];
  // The mean distance between laid-out concepts sets the band's grid.
  const spacing = Math.max(maxX - minX, maxY - minY, 1) / Math.max(Math.sqrt(shadow.order), 1);
  // Half the mean distance: a band that keeps the connected part the larger share of the page.
  const step = spacing / 2;
  const rows = Math.max(Math.ceil((maxY - minY) / step) + 1, Math.ceil(Math.sqrt(isolated.length)));
  const column = 3 * spacing; // labels past the first column are culled until zoomed in
  const left = maxX + 2 * spacing;
  isolated.forEach((node, i) => {
    band.set(node, { x: left + column * Math.floor(i / rows), y: maxY - step * (i % rows) });
  });
  return band;
}

/**
 * Start the layout. The worker moves a copy of the graph, so that sigma does not re-index the
 * drawn graph after every iteration (at 20,000 nodes that, not the worker, would set the pace);
 * positions are copied to the drawn graph now and then and at the end, then onSync() is called.
 * Returns { done: Promise<void>, stop() }.
 */
export function runLayout(graph, onSync) {
  // Concepts with no relation are not laid out among the others: they go to a band beside them.
  const shadow = graph.copy();
  const isolated = shadow.filterNodes((node) => shadow.degree(node) === 0);
  for (const node of isolated) shadow.dropNode(node);
  isolated.sort((a, b) => {
    const la = String(graph.getNodeAttribute(a, "label")).toLowerCase();
    const lb = String(graph.getNodeAttribute(b, "label")).toLowerCase();
    return la < lb ? -1 : la > lb ? 1 : a < b ? -1 : a > b ? 1 : 0;
  });
  const layout = new FA2Layout(shadow, {
    settings: { ...inferSettings(shadow), slowDown: 5 },
    getEdgeWeight: "weight",
  });
  let iterations = 0;
  let stopped = false;
  const syncMs = syncMilliseconds(graph.order);
  let lastSync = performance.now();
  let finish;
  const done = new Promise((resolve) => {
    finish = resolve;
  });

  const sync = () => {
    lastSync = performance.now();
    const band = bandPositions(shadow, isolated);
    graph.updateEachNodeAttributes(
      (node, attributes) => {
        const moved = shadow.hasNode(node) ? shadow.getNodeAttributes(node) : band.get(node);
        attributes.x = moved.x;
        attributes.y = moved.y;
        return attributes;
      },
      { attributes: ["x", "y"] },
    );
    onSync?.();
  };
  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    shadow.off("eachNodeAttributesUpdated", step);
    layout.kill(); // terminates the worker
    sync();
    finish();
  };
  // The supervisor writes each result with one updateEachNodeAttributes call: one event per batch.
  const step = () => {
    iterations += 1;
    if (iterations === MAX_ITERATIONS) {
      // Exactly MAX_ITERATIONS batches, so a small graph always gets the same layout; the worker
      // is killed later, not from inside the supervisor's own message handler (that breaks it).
      layout.stop();
      setTimeout(stop, 0);
    } else if (performance.now() - lastSync > syncMs) {
      sync();
    }
  };
  shadow.on("eachNodeAttributesUpdated", step);
  const timer = setTimeout(stop, maxMilliseconds(graph.order));
  layout.start();
  return { done, stop };
}
