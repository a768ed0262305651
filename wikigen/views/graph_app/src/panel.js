// V4: the side panel shows the focused concept's definition, articles and evidence without
// leaving the graph. Links point to the concept page, articles and the cited spans.
import { h, link } from "./dom.js";

const MAX_RELATIONS = 100;

export function emptyPanel(panel) {
  panel.replaceChildren(
    h("p", { className: "wikigen-graph__hint", text: "Click a concept, or search for one, to see its articles and evidence." }),
  );
}

function section(title, items) {
  if (items.length === 0) return null;
  return h("section", {}, [h("h3", { text: title }), h("ul", {}, items)]);
}

/** Relations touching the node, each with a button that focuses the other end. */
function relationItems(graph, relations, id, onFocus) {
  const items = [];
  let total = 0;
  graph.forEachEdge(id, (edge) => {
    for (const relation of relations.get(edge) ?? []) {
      total += 1;
      if (items.length >= MAX_RELATIONS) continue;
      const outgoing = relation.subject === id;
      const other = outgoing ? relation.object : relation.subject;
      if (!graph.hasNode(other)) continue;
      const button = h("button", {
        type: "button",
        className: "wikigen-graph__neighbour",
        text: graph.getNodeAttribute(other, "label"),
        onclick: () => onFocus(other),
      });
      const predicate = h("span", { className: "wikigen-graph__predicate", text: ` —${relation.predicate}→ ` });
      const self = h("strong", { text: graph.getNodeAttribute(id, "label") });
      items.push(h("li", {}, outgoing ? [self, predicate, button] : [button, predicate, self]));
    }
  });
  if (total > items.length) items.push(h("li", { text: `… and ${total - items.length} more` }));
  return items;
}

/**
 * The focused concept. details: { concepts, relations } (data.js), or null while a big graph's
 * details are still on their way (or could not be loaded): then the panel shows `pending`, and is
 * shown again when they come.
 */
export function showConcept(panel, graph, details, id, onFocus, pending = "Loading its details…") {
  const label = graph.getNodeAttribute(id, "label");
  if (!details) {
    panel.replaceChildren(h("h2", { text: label }), h("p", { className: "wikigen-graph__hint", text: pending }));
    return;
  }
  const { concepts, relations } = details;
  const concept = concepts.get(id) ?? {};
  const articles = (concept.articles ?? []).map((article) => h("li", {}, [link(article.url, article.title || article.url)]));
  const evidence = (concept.evidence ?? []).map((item) =>
    h("li", {}, [
      h("blockquote", {}, [link(item.url, item.quote, "wikigen-graph__quote")]),
      h("cite", { text: item.source_title || item.source || "" }),
    ]),
  );
  const parts = [
    h("h2", { text: label }),
    concept.type ? h("p", { className: "wikigen-graph__type", text: concept.type }) : null,
    concept.definition ? h("p", { className: "wikigen-graph__definition", text: concept.definition }) : null,
    concept.url ? h("p", {}, [link(concept.url, "Open the concept page", "wikigen-graph__concept-link")]) : null,
    section("Articles", articles),
    section("Evidence", evidence),
    section("Relations", relationItems(graph, relations, id, onFocus)),
  ];
  panel.replaceChildren(...parts.filter(Boolean));
  panel.scrollTop = 0;
}
