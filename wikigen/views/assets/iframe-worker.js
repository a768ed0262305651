/* wikigen's local iframe-worker shim for Material's offline plugin.
 *
 * Browsers refuse `new Worker(url)` on file:// pages, which breaks Material's search when the site
 * is opened from disk. Material's offline plugin fixes that with the iframe-worker polyfill from
 * unpkg.com — a request to another host. This file is a small local replacement (written for
 * wikigen, not a copy): on file:// only, a Worker for a script URL runs in a hidden iframe whose
 * `postMessage`, `onmessage`, `importScripts` and `close` behave like a worker's. Over http(s) and
 * for blob: workers (the graph layout) it changes nothing. Its name contains "iframe-worker" so that
 * the offline plugin sees a shim is present and adds no CDN script.
 */
(function () {
  "use strict";
  if (typeof window === "undefined" || window.location.protocol !== "file:" || !window.Worker) return;
  var NativeWorker = window.Worker;

  function IFrameWorker(url) {
    var target = document.createElement("div"); // an EventTarget that works in every browser
    var self = this;
    var queue = [];
    var ready = false;
    var iframe = document.createElement("iframe");
    iframe.setAttribute("aria-hidden", "true");
    iframe.style.display = "none";
    this.onmessage = null;
    this.onerror = null;

    this.addEventListener = function (type, listener) { target.addEventListener(type, listener); };
    this.removeEventListener = function (type, listener) { target.removeEventListener(type, listener); };
    this.dispatchEvent = function (event) {
      var handler = self["on" + event.type];
      if (typeof handler === "function") handler.call(self, event);
      return target.dispatchEvent(event);
    };
    this.postMessage = function (data) {
      if (!ready) return queue.push(data);
      var scope = iframe.contentWindow;
      setTimeout(function () {
        scope.dispatchEvent(new MessageEvent("message", { data: data }));
      }, 0);
    };
    this.terminate = function () {
      if (iframe.parentNode) iframe.parentNode.removeChild(iframe);
    };

    document.body.appendChild(iframe);
    var scope = iframe.contentWindow;
    var doc = scope.document;
    var base = new URL(url, document.baseURI).href;
    // document.open() erases the window's listeners, so it comes before they are added.
    doc.open();
    // The worker's global scope, as far as worker scripts use it.
    scope.postMessage = function (data) {
      setTimeout(function () {
        self.dispatchEvent(new MessageEvent("message", { data: data }));
      }, 0);
    };
    scope.close = this.terminate;
    scope.importScripts = function () {
      for (var i = 0; i < arguments.length; i++) {
        var src = new URL(arguments[i], base).href;
        scope.document.write('<script src="' + src.replace(/"/g, "&quot;") + '"><\/script>');
      }
    };
    scope.addEventListener("error", function (event) {
      self.dispatchEvent(new ErrorEvent("error", { message: event.message }));
    });
    iframe.addEventListener("load", function () {
      ready = true;
      var pending = queue;
      queue = [];
      for (var i = 0; i < pending.length; i++) self.postMessage(pending[i]);
    });
    doc.write('<!doctype html><script src="' + base.replace(/"/g, "&quot;") + '"><\/script>');
    doc.close();
  }

  window.Worker = function (url, options) {
    if (String(url).indexOf("blob:") === 0) return new NativeWorker(url, options);
    return new IFrameWorker(url);
  };
  window.Worker.prototype = NativeWorker.prototype;
})();
