// The demo web app: a small stand-in for the Dreams for Littles mobile web
// app, enough to show the Sleep timer's native path on the desktop. It signs
// in as the demo parent (family self-mode) or as a coach viewing the family,
// starts and stops Sleep timers, lists the running ones, shows "Saved from
// the desktop" when a timer was completed from a notification, and serves the
// Sleep route a notification's click opens.
//
// Inside the Dreams for Littles desktop app it uses the real client of
// dfl-webview-bridge over the transport the app injects; in a plain browser
// it talks to the platform alone, as the web app does without a desktop.

import { BridgeError, SleepTimerBridgeClient } from "/demo/client/dfl-webview-bridge-client.mjs";

const SESSION_KEY = "dfl-demo-session";
const SLEEP_ROUTE = /^\/families\/([0-9a-f-]{36})\/babies\/([0-9a-f-]{36})\/track\/sleep$/;

const $ = (id) => document.getElementById(id);
const desktop = window.dreamsForLittlesDesktop;
const client = desktop ? new SleepTimerBridgeClient(desktop.transport) : null;

/** The signed-in user, as the sign-in answered; kept in local storage (website data). */
let session = readSession();
/** Timers this page knows of, by id: for the names and times of saved sleeps. */
const known = new Map();
// The timers this page has handed to the desktop (mirrored through the bridge).
const handedToDesktop = new Set();

function readSession() {
  try {
    return JSON.parse(localStorage.getItem(SESSION_KEY));
  } catch {
    return null;
  }
}

function say(text) {
  $("message").textContent = text;
}

function describe(error) {
  if (error instanceof BridgeError) return `${error.message} (${error.code})`;
  return error && error.message ? error.message : String(error);
}

// ---- the platform, called by the page with the user's token

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: { Authorization: `Bearer ${session.accessToken}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const document = text ? JSON.parse(text) : {};
  if (!response.ok) throw new Error(document.error ? document.error.message : `HTTP ${response.status}`);
  return document;
}

// ---- the desktop's bridge

/** Tells the bridge who is signed in; again after the bridge was restarted. */
async function startBridgeSession() {
  if (!client || !session) return;
  await client.setSession({
    apiOrigin: location.origin,
    userId: session.userId,
    accessToken: session.accessToken,
    actor: { mode: session.mode, familySubjectId: session.familySubjectId },
  });
}

async function showDesktopStatus() {
  if (!client) {
    $("desktop-status").textContent = "In a browser: timers stay in the web app.";
    return;
  }
  try {
    const capabilities = await client.getCapabilities();
    $("desktop-status").textContent = capabilities.nativeSleepTimer
      ? "On the desktop: Sleep timers show as notifications."
      : "On the desktop, without its Sleep timer service.";
  } catch (error) {
    $("desktop-status").textContent = `The desktop bridge did not answer: ${describe(error)}`;
  }
}

// ---- timers

function babyName(babyId) {
  return session.babies.find((baby) => baby.id === babyId)?.name ?? "the baby";
}

function clock(iso) {
  return new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

async function refresh() {
  const { timers } = await api("GET", `/active-timers?familySubjectId=${session.familySubjectId}`);
  const list = $("running");
  list.replaceChildren();
  for (const timer of timers) {
    known.set(timer.id, timer);
    const item = document.createElement("li");
    item.dataset.timerId = timer.id;
    item.dataset.babyId = timer.babyId;
    const label = document.createElement("span");
    label.textContent = `${babyName(timer.babyId)} · ${timer.activityType} since ${clock(timer.startedAt)}`;
    const stop = document.createElement("button");
    stop.type = "button";
    stop.textContent = "Stop";
    stop.dataset.action = "stop";
    stop.addEventListener("click", () => stopTimer(timer).catch((error) => say(`Could not stop: ${describe(error)}`)));
    item.append(label, stop);
    list.append(item);
  }
  $("running-empty").hidden = timers.length > 0;
  if (client && session.mode === "self") {
    // The desktop forgets the timers that stopped elsewhere (on the phone).
    await client.reconcileSleepTimers(timers.filter((t) => t.activityType === "sleep").map((t) => t.id));
    // A page that loads while sleeps run (the app started in the background
    // after a reboot, say) hands them to the desktop again: the upsert
    // brings each a fresh token.
    for (const timer of timers) {
      if (timer.activityType !== "sleep" || handedToDesktop.has(timer.id)) continue;
      handedToDesktop.add(timer.id);
      const { id, babyId, activityType, startedAt, timezone, details, note } = timer;
      await client.upsertSleepTimer({ id, babyId, babyName: babyName(babyId), activityType, startedAt, timezone, details, note });
    }
  }
  showSleepRoute();
  return timers;
}

async function startSleep(baby) {
  const timer = {
    id: crypto.randomUUID(),
    babyId: baby.id,
    babyName: baby.name,
    activityType: "sleep",
    startedAt: new Date().toISOString(),
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC",
    details: {},
    note: null,
  };
  if (client) {
    handedToDesktop.add(timer.id);
    const { native } = await client.upsertSleepTimer(timer);
    say(native.mirrored ? `${baby.name}'s sleep started; it is on the desktop too.`
      : `${baby.name}'s sleep started (${native.reason}).`);
  } else {
    await api("PUT", `/active-timers/${timer.id}`, { ...timer, familySubjectId: session.familySubjectId });
    say(`${baby.name}'s sleep started.`);
  }
  await refresh();
}

async function stopTimer(timer) {
  const { draft } = await api("POST", `/active-timers/${timer.id}/stop`, {});
  const { activity } = await api("POST", "/activities", {
    clientMutationId: crypto.randomUUID(), familySubjectId: session.familySubjectId, babyId: timer.babyId,
    type: timer.activityType, startedAt: draft.startedAt, endedAt: draft.stoppedAt, activeTimerId: timer.id,
    details: draft.details, note: draft.note,
  });
  if (client && session.mode === "self") await client.removeSleepTimer(timer.id);
  addSaved(activity.id, timer, "Saved");
  await refresh();
}

function addSaved(activityId, timer, how) {
  const minutes = Math.max(0, Math.round((Date.now() - Date.parse(timer.startedAt)) / 60_000));
  const item = document.createElement("li");
  item.dataset.activityId = activityId;
  item.dataset.timerId = timer.id;
  item.textContent = `${how}: ${babyName(timer.babyId)}'s sleep, ${minutes} min`;
  $("saved").prepend(item);
}

// ---- the Sleep route: /families/{family}/babies/{baby}/track/sleep?timer={timer}

function showSleepRoute() {
  const match = SLEEP_ROUTE.exec(location.pathname);
  const section = $("sleep-route");
  if (!match || !session) {
    section.hidden = true;
    return;
  }
  const timerId = new URLSearchParams(location.search).get("timer");
  const timer = known.get(timerId);
  const running = [...$("running").children].some((item) => item.dataset.timerId === timerId);
  const saved = [...$("saved").children].find((item) => item.dataset.timerId === timerId);
  section.hidden = false;
  section.dataset.timerId = timerId ?? "";
  section.dataset.state = running ? "running" : saved ? "saved" : "not-running";
  $("sleep-route-baby").textContent = babyName(match[2]);
  $("sleep-route-timer").textContent = running
    ? `Asleep since ${clock(timer.startedAt)} (timer ${timerId}).`
    : saved ? `Saved: ${saved.textContent} (timer ${timerId}).` : `Timer ${timerId} is not running.`;
}

// ---- signing in and out

async function signIn(as) {
  const response = await fetch("/demo/sign-in", { method: "POST", body: JSON.stringify({ as }) });
  if (!response.ok) throw new Error(`sign-in failed: HTTP ${response.status}`);
  session = await response.json();
  localStorage.setItem(SESSION_KEY, JSON.stringify(session));
  await showFamily();
}

async function signOut() {
  if (client) await client.clearSession();
  localStorage.removeItem(SESSION_KEY);
  session = null;
  $("saved").replaceChildren();
  render();
}

async function showFamily() {
  render();
  await startBridgeSession();
  await refresh();
}

function render() {
  $("sign-in").hidden = Boolean(session);
  $("family").hidden = !session;
  if (!session) return;
  $("who").textContent = session.mode === "self"
    ? `Signed in as ${session.name} · family self-mode`
    : `Viewing the family as ${session.name} · coach view-as`;
  const list = $("babies");
  list.replaceChildren();
  for (const baby of session.babies) {
    const item = document.createElement("li");
    const name = document.createElement("span");
    name.textContent = baby.name;
    const start = document.createElement("button");
    start.type = "button";
    start.id = `start-sleep-${baby.name}`;
    start.dataset.action = "start-sleep";
    start.textContent = "Start Sleep";
    // Every baby's button says "Start Sleep"; its accessible name says whose,
    // so that a screen reader's list of buttons tells them apart.
    start.setAttribute("aria-label", `Start ${baby.name}'s sleep`);
    start.addEventListener("click", () => startSleep(baby).catch((error) => say(`Could not start: ${describe(error)}`)));
    item.append(name, start);
    list.append(item);
  }
}

// ---- wiring

$("sign-in-parent").addEventListener("click", () => signIn("parent").catch((error) => say(describe(error))));
$("sign-in-coach").addEventListener("click", () => signIn("coach").catch((error) => say(describe(error))));
$("sign-out").addEventListener("click", () => signOut().catch((error) => say(describe(error))));

if (client) {
  client.onCompletedNatively(({ timerId, activityId }) => {
    const timer = known.get(timerId);
    if (timer) addSaved(activityId, timer, "Saved from the desktop");
    say("Saved from the desktop.");
    refresh().catch((error) => say(describe(error)));
  });
  client.onClose(() => {
    say("The desktop bridge restarted; signing it in again.");
    startBridgeSession().catch((error) => say(describe(error)));
  });
}

// Stands in for the platform's realtime updates, so that a timer stopped on
// another device leaves the desktop (through the reconcile), the app's window
// closed or not. A shown page fetches the family's timers every 15 s while
// one runs. A hidden page (the window closed) runs no timer: it waits on the
// demo server's change feed, a long poll that answers when the store changes
// (or after 45 s with nothing new), and fetches after each change, so the
// app's process tree sleeps while nothing happens. Shown again, or just
// hidden, the page fetches at once: the web process learns that the page is
// hidden some time after the window goes, and a change the feed answers in
// between (the page not yet hidden, its timer already cleared) would
// otherwise wait for the next one.
const REFRESH_WHILE_RUNNING_MS = 15000;
const CHANGES_RETRY_MS = 5000;
const pageHidden = () => document.visibilityState === "hidden";
const timersRun = () => session && $("running").children.length > 0;
let refreshTimer = 0;
function scheduleRefresh() {
  clearTimeout(refreshTimer);
  if (pageHidden()) return;
  refreshTimer = setTimeout(() => {
    if (timersRun()) refresh().catch((error) => say(describe(error)));
    scheduleRefresh();
  }, REFRESH_WHILE_RUNNING_MS);
}
async function followChanges() {
  let seen = -1;
  for (;;) {
    try {
      const response = await fetch(`/demo/timer-changes/${seen}`, { cache: "no-store" });
      if (!response.ok) throw new Error(`the change feed answered ${response.status}`);
      const { version } = await response.json();
      const changed = seen !== -1 && version !== seen;
      seen = version;
      if (changed && pageHidden() && timersRun()) await refresh().catch((error) => say(describe(error)));
    } catch (error) {
      // The server restarted or the network is down: ask again a little later.
      await new Promise((resolve) => setTimeout(resolve, CHANGES_RETRY_MS));
    }
  }
}
document.addEventListener("visibilitychange", () => {
  if (timersRun()) refresh().catch((error) => say(describe(error)));
  scheduleRefresh();
});
scheduleRefresh();

showDesktopStatus();
render();
if (session) showFamily().catch((error) => say(describe(error)));
window.addEventListener("load", () => {
  document.body.dataset.loaded = "true";
  followChanges();
  // Tells the demo server the page has loaded (the benchmark reads the moment from its request log).
  fetch("/demo/events", { method: "POST", body: "loaded", keepalive: true }).catch(() => {});
});
