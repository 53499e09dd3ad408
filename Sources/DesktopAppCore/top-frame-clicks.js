// Tells the Dreams for Littles desktop app which links a person clicked in
// the web app's page, the top frame: WebKitGTK does not say which frame a
// navigation is for, and the app lets a navigation leave for the browser or
// the mail program only when a person clicked that link here. A click on
// anything else is told as an empty string: WebKitGTK does not say which
// frame asked to print or to choose a file either, and the app shows those
// dialogs only just after a person's click here. It runs in the
// app's isolated script world, which neither the page's scripts nor any
// frame can reach, at document start in the top frame of the web app's
// origin only; its listeners come before the page's. A click inside a frame
// never reaches this window, and a click a script makes is not trusted.
(() => {
  "use strict";
  const WEB_ORIGIN = __DFL_WEB_ORIGIN__;
  if (window !== window.top || window.location.origin !== WEB_ORIGIN) return;
  const handler = window.webkit.messageHandlers.dreamsforlittlesClicks;
  const report = (event) => {
    if (!event.isTrusted) return;
    for (const node of event.composedPath()) {
      if ((node instanceof HTMLAnchorElement || node instanceof HTMLAreaElement) && node.href) {
        handler.postMessage(node.href);
        return;
      }
    }
    handler.postMessage("");
  };
  window.addEventListener("click", report, true);
  window.addEventListener("auxclick", report, true);
})();
