// V4: search that flies to a node. Labels match case-insensitively: exact matches first, then
// prefixes (shorter labels first); suggestions add labels that merely contain the text.
import { h } from "./dom.js";

const SUGGESTIONS = 10;

export const normalize = (text) => String(text).normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();

function byLabel(a, b) {
  return a.key.length - b.key.length || (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id < b.id ? -1 : 1);
}

export class LabelIndex {
  constructor(graph) {
    this.graph = graph;
    this.sorted = null;
  }

  // Built on the first search, not at start-up: at 20,000 concepts it is work the first frame
  // does not need.
  get entries() {
    if (!this.sorted) {
      this.sorted = this.graph.mapNodes((id, attributes) => ({ id, label: attributes.label, key: normalize(attributes.label) }));
      this.sorted.sort(byLabel);
    }
    return this.sorted;
  }

  /** Matches for text, best first; contains=false keeps exact and prefix matches only. */
  matches(text, { limit = Infinity, contains = true } = {}) {
    const query = normalize(text);
    if (query === "") return [];
    const exact = [];
    const prefix = [];
    const inner = [];
    for (const entry of this.entries) {
      if (entry.key === query) exact.push(entry);
      else if (entry.key.startsWith(query)) prefix.push(entry);
      else if (contains && entry.key.includes(query)) inner.push(entry);
      if (exact.length >= limit) break;
    }
    return [...exact, ...prefix, ...inner].slice(0, limit);
  }

  best(text) {
    return this.matches(text, { limit: 1, contains: false })[0]?.id ?? null;
  }
}

/** The search box with its suggestion list; onPick(id) flies to and focuses the node. */
export function searchBox(index, onPick) {
  const input = h("input", {
    id: "wikigen-graph-search",
    className: "wikigen-graph__search",
    type: "search",
    placeholder: "Search concepts…",
    autocomplete: "off",
    spellcheck: "false",
    role: "combobox",
    "aria-label": "Search concepts",
    "aria-autocomplete": "list",
    "aria-expanded": "false",
    "aria-controls": "wikigen-graph-suggestions",
  });
  const list = h("ul", { id: "wikigen-graph-suggestions", className: "wikigen-graph__suggestions", role: "listbox" });
  list.hidden = true;
  let current = [];
  let selected = -1;

  const close = () => {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    selected = -1;
  };
  const select = (i) => {
    selected = i;
    [...list.children].forEach((item, j) => item.setAttribute("aria-selected", String(j === i)));
    if (i >= 0) input.setAttribute("aria-activedescendant", list.children[i].id);
  };
  const pick = (entry) => {
    if (!entry) return;
    input.value = entry.label;
    close();
    onPick(entry.id);
  };
  const show = () => {
    current = index.matches(input.value, { limit: SUGGESTIONS });
    list.replaceChildren(
      ...current.map((entry, i) =>
        h("li", {
          id: `wikigen-graph-suggestion-${i}`,
          role: "option",
          "aria-selected": "false",
          text: entry.label,
          // mousedown, not click: the input's blur would close the list first
          onmousedown: (event) => {
            event.preventDefault();
            pick(entry);
          },
        }),
      ),
    );
    list.hidden = current.length === 0;
    input.setAttribute("aria-expanded", String(!list.hidden));
    select(-1);
  };

  input.addEventListener("input", show);
  input.addEventListener("focus", () => input.value && show());
  input.addEventListener("blur", close);
  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (list.hidden) show();
      const step = event.key === "ArrowDown" ? 1 : -1;
      select(current.length ? (selected + step + current.length) % current.length : -1);
    } else if (event.key === "Enter") {
      event.preventDefault();
      if (list.hidden) current = index.matches(input.value, { limit: 1 });
      pick(current[Math.max(selected, 0)]);
    } else if (event.key === "Escape") {
      close();
    }
  });
  return h("div", { className: "wikigen-graph__searchbox" }, [input, list]);
}
