// The page's half of its transport to dfl-webview-bridge, injected by the
// Dreams for Littles desktop app at document start into the top frame of the
// web app's origin only: window.dreamsForLittlesDesktop.transport, the
// Transport of dfl-webview-bridge-client.mjs (send, onMessage, onClose).
// Texts travel as DOM events on the top window to and from the isolated
// world that holds the message handler; a frame of another origin can
// neither dispatch nor hear them.
(() => {
  "use strict";
  const WEB_ORIGIN = __DFL_WEB_ORIGIN__;
  if (window !== window.top || window.location.origin !== WEB_ORIGIN) return;
  const messageListeners = new Set();
  const closeListeners = new Set();
  // One listener's failure must not keep the others from hearing; it is
  // reported as an uncaught error.
  const tell = (listeners, value) => {
    for (const listener of [...listeners]) {
      try {
        listener(value);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  };
  window.addEventListener("dreamsforlittles-bridge:message", (event) => {
    if (typeof event.detail === "string") tell(messageListeners, event.detail);
  });
  window.addEventListener("dreamsforlittles-bridge:close", () => tell(closeListeners, undefined));
  const transport = Object.freeze({
    /** Hands one JSON-RPC text to the bridge (one line on its stdin). */
    send(text) {
      if (typeof text !== "string") throw new TypeError("send() takes the text of one JSON-RPC message.");
      window.dispatchEvent(new CustomEvent("dreamsforlittles-bridge:send", { detail: text }));
    },
    /** Each text the bridge writes; returns the unsubscribe. */
    onMessage(listener) {
      messageListeners.add(listener);
      return () => messageListeners.delete(listener);
    },
    /** The bridge ended: calls in flight get no answer. The app starts a new one at once. */
    onClose(listener) {
      closeListeners.add(listener);
      return () => closeListeners.delete(listener);
    },
  });
  Object.defineProperty(window, "dreamsForLittlesDesktop", {
    value: Object.freeze({ protocolVersion: 1, transport }),
    enumerable: false,
    configurable: false,
    writable: false,
  });
})();
