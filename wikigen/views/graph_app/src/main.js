// Entry point of assets/graph.js: finds <div id="wikigen-graph" data-src="..."> and starts the view.
// Works on a plain page load and with MkDocs Material's instant navigation (document$).
import "./graph.css";

import { createApp } from "./app.js";

const CONTAINER_ID = "wikigen-graph";
let current = null;

function boot() {
  if (current && !current.container.isConnected) {
    current.kill(); // instant navigation left the graph page: stop the layout worker and WebGL
    current = null;
  }
  const container = document.getElementById(CONTAINER_ID);
  if (!container || container.dataset.wikigenGraph === "started") return;
  container.dataset.wikigenGraph = "started";
  current = createApp(container);
  window.wikigenGraph = current;
}

if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(boot);
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
else boot();
