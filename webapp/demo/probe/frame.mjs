// What frame.html tries: every way a frame of another origin has to reach
// the desktop app's bridge; each outcome is written into the frame's page.
const attempts = document.getElementById("attempts");
document.getElementById("origin").textContent = location.origin;
const note = (name, outcome) => {
  const item = document.createElement("li");
  item.dataset.attempt = name;
  item.textContent = `${name}: ${outcome}`;
  attempts.append(item);
};
const request = (id) => JSON.stringify({ jsonrpc: "2.0", id, method: "bridge.getCapabilities" });
try {
  const handlers = window.webkit && window.webkit.messageHandlers;
  const handler = handlers && handlers.dreamsforlittlesBridge;
  if (handler) {
    handler.postMessage(request("frame-probe-handler"));
    note("handler", "posted");
  } else {
    note("handler", "absent");
  }
} catch (error) {
  note("handler", `threw ${error.name}`);
}
note("transport", window.dreamsForLittlesDesktop ? "present" : "absent");
try {
  window.top.dispatchEvent(new CustomEvent("dreamsforlittles-bridge:send", { detail: request("frame-probe-event") }));
  note("top-event", "dispatched");
} catch (error) {
  note("top-event", `threw ${error.name}`);
}
try {
  window.top.postMessage(request("frame-probe-postmessage"), "*");
  note("postmessage", "posted");
} catch (error) {
  note("postmessage", `threw ${error.name}`);
}
document.body.dataset.done = "true";
