// The privileged half of the page's transport to dfl-webview-bridge, injected
// by the Dreams for Littles desktop app. It runs in an isolated script world,
// which neither the page's own scripts nor any frame can reach, at document
// start in the top frame of the web app's origin only. It alone holds the
// script message handler: it posts each text the page's half sends; the app
// dispatches what the bridge answers on the same window.
(() => {
  "use strict";
  const WEB_ORIGIN = __DFL_WEB_ORIGIN__;
  if (window !== window.top || window.location.origin !== WEB_ORIGIN) return;
  const handler = window.webkit.messageHandlers.dreamsforlittlesBridge;
  window.addEventListener("dreamsforlittles-bridge:send", (event) => {
    if (typeof event.detail === "string") handler.postMessage(event.detail);
  });
})();
