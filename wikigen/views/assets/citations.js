/* wikigen citations: on a source's raw view, highlight the cited span named by the URL's
 * #c-<citation_id>. Each anchor carries its span in UTF-16 units (what JavaScript strings count),
 * converted at build time from the compiler's code-point offsets, so the highlighted text equals
 * the quote exactly, emoji and other astral characters included. No request, no dependency. */
(function () {
  "use strict";

  var HIGHLIGHT = "wikigen-hl";

  function clear(root) {
    var marks = root.querySelectorAll("mark." + HIGHLIGHT);
    for (var i = 0; i < marks.length; i++) {
      var mark = marks[i];
      var parent = mark.parentNode;
      while (mark.firstChild) parent.insertBefore(mark.firstChild, mark);
      parent.removeChild(mark);
      parent.normalize();
    }
  }

  // Wrap [start, end) (UTF-16 units into root's text) in <mark> elements, one per text node.
  function wrap(root, start, end) {
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    var pieces = [];
    var offset = 0;
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      var length = node.data.length;
      var from = Math.max(start, offset);
      var to = Math.min(end, offset + length);
      if (from < to) pieces.push([node, from - offset, to - offset]);
      offset += length;
      if (offset >= end) break;
    }
    var marks = [];
    for (var i = 0; i < pieces.length; i++) {
      var target = pieces[i][0];
      if (pieces[i][1] > 0) target = target.splitText(pieces[i][1]);
      if (pieces[i][2] - pieces[i][1] < target.data.length) target.splitText(pieces[i][2] - pieces[i][1]);
      var mark = document.createElement("mark");
      mark.className = HIGHLIGHT;
      target.parentNode.insertBefore(mark, target);
      mark.appendChild(target);
      marks.push(mark);
    }
    return marks;
  }

  function anchorFromHash() {
    var hash = window.location.hash;
    if (!hash || hash.length < 2) return null;
    var name;
    try {
      name = decodeURIComponent(hash.slice(1));
    } catch (error) {
      return null;
    }
    var element = document.getElementById(name);
    return element && element.classList.contains("wikigen-raw__anchor") ? element : null;
  }

  var state = { text: "", citation: null };

  function highlight() {
    var body = document.querySelector("code.wikigen-raw__body");
    if (!body) return;
    clear(body);
    state.text = "";
    state.citation = null;
    var anchor = anchorFromHash();
    if (!anchor || !body.contains(anchor)) return;
    var start = parseInt(anchor.getAttribute("data-start"), 10);
    var end = parseInt(anchor.getAttribute("data-end"), 10);
    if (!(start >= 0 && end >= start)) return;
    var marks = wrap(body, start, end);
    state.text = marks.map(function (m) { return m.textContent; }).join("");
    state.citation = anchor.getAttribute("data-citation-id");
    if (marks.length) {
      marks[0].id = "wikigen-hl-first";
      marks[0].scrollIntoView({ block: "center" });
    }
  }

  window.wikigenCitations = {
    highlight: highlight,
    highlighted: function () { return state.text; },
    citation: function () { return state.citation; },
  };

  window.addEventListener("hashchange", highlight);
  // Material's instant navigation swaps pages without a load event.
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(highlight);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", highlight);
  } else {
    highlight();
  }
})();
