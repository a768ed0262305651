// ForceAtlas2 in its web worker, from the seeded start positions, stopped after a bounded number of
// iterations or a bounded time, whichever comes first. The layout is visual only (V4): positions
// stay in the page and are never written back.
import { inferSettings } from "graphology-layout-forceatlas2";
import FA2Layout from "graphology-layout-forceatlas2/worker";

import { bandPositions, sortByLabel } from "./band.js";

const MAX_ITERATIONS = 500;

function maxMilliseconds(order) {
  return Math.min(1500 + order / 2, 12000);
}

// Each copy makes sigma re-index the drawn graph: rarer for large graphs.
function syncMilliseconds(order) {
  return Math.max(400, order / 20);
}

/**
 * Start the layout. The worker moves a copy of the graph, so that sigma does not re-index the
 * drawn graph after every iteration (at 20,000 nodes that, not the worker, would set the pace);
 * positions are copied to the drawn graph now and then and at the end, then onSync(band) is called
 * with the band of isolated concepts ({ isolated, positions, readable }, band.js).
 * frame() gives the stage in pixels for the band of isolated concepts (band.js).
 * Returns { done: Promise<void>, stop() }.
 */
export function runLayout(graph, onSync, frame) {
  // Concepts with no relation are not laid out among the others: they go to a band beside them.
  const shadow = graph.copy();
  const isolated = sortByLabel(graph, shadow.filterNodes((node) => shadow.degree(node) === 0));
  for (const node of isolated) shadow.dropNode(node);
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
    const connected = shadow.mapNodes((id, { x, y }) => ({ id, x, y }));
    const band = bandPositions(connected, isolated, frame?.());
    graph.updateEachNodeAttributes(
      (node, attributes) => {
        if (shadow.hasNode(node)) {
          const { x, y } = shadow.getNodeAttributes(node);
          attributes.x = x;
          attributes.y = y;
        } else {
          Object.assign(attributes, band.positions.get(node));
          attributes.forceLabel = true; // band.js: its labels follow the band's rules, not sigma's grid
        }
        return attributes;
      },
      { attributes: ["x", "y", "forceLabel"] },
    );
    onSync?.({ isolated, ...band });
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
