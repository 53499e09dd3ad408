// The client against the real dfl-webview-bridge, with the reference
// platform over TLS and the real dfl-sleep-agent on a private session bus.
// Each test starts from a platform without timers or activities and a
// bridge without a session (so without mirrored timers on the desktop).

import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, beforeEach, describe, it } from "node:test";

import {
  BridgeError,
  BridgeErrorCode,
  SleepTimerBridgeClient,
} from "../../Sources/WebViewBridgeJS/dfl-webview-bridge-client.mjs";
import {
  PATIENCE_MS,
  completeNatively,
  control,
  eventually,
  nextCall,
  startEnvironment,
} from "./bridge-environment.mjs";

/** A bound for one test, so that a hang fails instead of blocking the run. */
const TEST_MS = 4 * PATIENCE_MS;

/** What the platform's native action tokens begin with. */
const NATIVE_TOKEN_PREFIX = "dflnat_";

describe("SleepTimerBridgeClient with dfl-webview-bridge", () => {
  let environment;
  let info;
  let client;
  /** Every completion the client was told of, in order. */
  const completions = [];

  before(async () => {
    environment = await startEnvironment();
    info = environment.info;
    client = new SleepTimerBridgeClient(environment.transport, { timeoutMs: PATIENCE_MS });
    client.onCompletedNatively((event) => completions.push(event));
  }, { timeout: 240_000 });

  after(async () => {
    client?.close();
    await environment?.stop();
  }, { timeout: 240_000 });

  beforeEach(async () => {
    await control(info.control, "POST", "/control/reset");
    await client.clearSession();
  }, { timeout: 2 * PATIENCE_MS });

  const parentSession = () => ({
    apiOrigin: info.apiOrigin,
    userId: info.parent.id,
    accessToken: info.parent.accessToken,
    actor: { mode: "self", familySubjectId: info.familySubjectId },
  });

  const coachSession = () => ({
    apiOrigin: info.apiOrigin,
    userId: info.coach.id,
    accessToken: info.coach.accessToken,
    actor: { mode: "coach", familySubjectId: info.familySubjectId },
  });

  /** A timer started 83 minutes ago. */
  const timer = (overrides = {}) => ({
    id: randomUUID(),
    babyId: info.babies.Maya,
    babyName: "Maya",
    activityType: "sleep",
    startedAt: new Date(Date.now() - 83 * 60_000).toISOString(),
    timezone: "Europe/Berlin",
    details: {},
    note: null,
    ...overrides,
  });

  /** The platform's log of PUT /active-timers/{id}. */
  async function putsOf(timerId) {
    const { requests } = await control(info.control, "GET", "/control/requests");
    return requests.filter((request) => request.method === "PUT" && request.path === `/active-timers/${timerId}`);
  }

  async function rejection(promise) {
    try {
      await promise;
    } catch (error) {
      assert.ok(error instanceof BridgeError, `not a BridgeError: ${error}`);
      return error;
    }
    assert.fail("the call succeeded");
  }

  it("reports the native Sleep timer as available, with the agent's version", { timeout: TEST_MS }, async () => {
    const capabilities = await client.getCapabilities();
    assert.equal(capabilities.protocolVersion, 1);
    assert.equal(capabilities.nativeSleepTimer, true);
    assert.equal(typeof capabilities.agentVersion, "string");
    assert.notEqual(capabilities.agentVersion, "");
  });

  it("refuses timer calls before session.set with -32010 no_session", { timeout: TEST_MS }, async () => {
    const upsert = await rejection(client.upsertSleepTimer(timer()));
    assert.equal(upsert.code, BridgeErrorCode.NO_SESSION);
    assert.deepEqual(upsert.data, { status: 0, code: "no_session" });

    const reconcile = await rejection(client.reconcileSleepTimers([]));
    assert.equal(reconcile.code, BridgeErrorCode.NO_SESSION);
    assert.deepEqual(reconcile.data, { status: 0, code: "no_session" });
  });

  it("mirrors the family's own Sleep timer, and never returns the native action token", { timeout: TEST_MS }, async () => {
    await client.setSession(parentSession());
    const sleep = timer();
    const before = environment.received.length;
    const reply = await client.upsertSleepTimer(sleep);

    assert.deepEqual(reply.native, { mirrored: true, reason: "mirrored" });
    assert.equal(reply.timer.id, sleep.id);
    assert.equal(reply.timer.babyId, sleep.babyId);
    assert.equal(reply.timer.activityType, "sleep");
    assert.deepEqual(keysIn(reply).filter((key) => /token/i.test(key)), []);
    for (const line of environment.received.slice(before)) {
      assert.doesNotMatch(line, /nativeActionToken|actionToken/);
      assert.ok(!line.includes(NATIVE_TOKEN_PREFIX), "a line from the bridge holds a native action token");
    }

    const [put, ...more] = await putsOf(sleep.id);
    assert.equal(more.length, 0);
    assert.equal(put.status, 201);
    assert.equal(put.hasAuthorization, true);
    assert.equal(put.body.requestNativeActionToken, true);
    assert.equal(put.body.familySubjectId, info.familySubjectId);
  });

  it("passes a native completion on to the app, and the platform has exactly that one activity", { timeout: TEST_MS }, async () => {
    await client.setSession(parentSession());
    const sleep = timer();
    assert.equal((await client.upsertSleepTimer(sleep)).native.mirrored, true);

    const told = nextCall(
      (resolve) => client.onCompletedNatively((event) => event.timerId === sleep.id && resolve(event)),
      "sleepTimer.completedNatively");
    assert.equal(await completeNatively(info.env, sleep.id), "('queued',)");
    const event = await told;
    assert.equal(typeof event.activityId, "string");

    const activities = await eventually(async () => {
      const { activities: all } = await control(info.control, "GET", "/control/activities");
      return all.length > 0 && all;
    }, "the activity on the platform");
    assert.equal(activities.length, 1);
    const [activity] = activities;
    assert.equal(activity.id, event.activityId);
    assert.equal(activity.timerId, sleep.id);
    assert.equal(activity.type, "sleep");
    assert.equal(activity.source, "native");
    assert.equal(activity.startedAt, sleep.startedAt);
    assert.equal(typeof activity.endedAt, "string");
    assert.deepEqual(completions.filter((each) => each.timerId === sleep.id), [event]);

    // Completed, it is no longer on the desktop.
    assert.deepEqual(await client.removeSleepTimer(sleep.id), { removed: false });
  });

  it("never asks for a native action token when a coach views the family", { timeout: TEST_MS }, async () => {
    await client.setSession(coachSession());
    const sleep = timer({ babyId: info.babies.Leo, babyName: "Leo" });
    const reply = await client.upsertSleepTimer(sleep);

    assert.deepEqual(reply.native, { mirrored: false, reason: "coach-view-as" });
    assert.equal(reply.timer.id, sleep.id);
    const [put, ...more] = await putsOf(sleep.id);
    assert.equal(more.length, 0);
    assert.equal(put.status, 201);
    assert.equal(put.hasAuthorization, true);
    assert.ok(put.body !== null && typeof put.body === "object");
    assert.equal(put.body.babyId, info.babies.Leo);
    assert.equal(Object.hasOwn(put.body, "requestNativeActionToken"), false);
    assert.deepEqual(await client.removeSleepTimer(sleep.id), { removed: false });
  });

  it("does not mirror a breastfeeding timer", { timeout: TEST_MS }, async () => {
    await client.setSession(parentSession());
    const feeding = timer({ activityType: "breastfeeding", details: { side: "left" } });
    const reply = await client.upsertSleepTimer(feeding);

    assert.deepEqual(reply.native, { mirrored: false, reason: "not-sleep" });
    assert.equal(reply.timer.activityType, "breastfeeding");
    const [put] = await putsOf(feeding.id);
    assert.equal(put.status, 201);
    assert.equal(Object.hasOwn(put.body, "requestNativeActionToken"), false);
  });

  it("answers a call whose strings held lone surrogates, which the client made well-formed", { timeout: TEST_MS }, async () => {
    await client.setSession(parentSession());
    const sleep = timer({ babyName: "Ma\uD800ya", note: "woke at \uDC00" });
    const reply = await client.upsertSleepTimer(sleep);
    assert.equal(reply.native.mirrored, true);
    assert.equal(reply.timer.note, "woke at \uFFFD");
    const [put] = await putsOf(sleep.id);
    assert.equal(put.body.note, "woke at \uFFFD");
  });

  it("removes a mirrored timer from the desktop once", { timeout: TEST_MS }, async () => {
    await client.setSession(parentSession());
    const sleep = timer();
    assert.equal((await client.upsertSleepTimer(sleep)).native.mirrored, true);
    assert.deepEqual(await client.removeSleepTimer(sleep.id), { removed: true });
    assert.deepEqual(await client.removeSleepTimer(sleep.id), { removed: false });
  });

  it("reconciles the desktop with the timers still running", { timeout: TEST_MS }, async () => {
    await client.setSession(parentSession());
    const maya = timer();
    const leo = timer({ babyId: info.babies.Leo, babyName: "Leo" });
    assert.equal((await client.upsertSleepTimer(maya)).native.mirrored, true);
    assert.equal((await client.upsertSleepTimer(leo)).native.mirrored, true);

    assert.deepEqual(await client.reconcileSleepTimers([maya.id, leo.id]), { removed: 0 });
    assert.deepEqual(await client.reconcileSleepTimers([maya.id]), { removed: 1 });
    assert.deepEqual(await client.removeSleepTimer(leo.id), { removed: false });
    assert.deepEqual(await client.reconcileSleepTimers([]), { removed: 1 });
    assert.deepEqual(await client.removeSleepTimer(maya.id), { removed: false });
  });

  it("purges the user's mirrored timers on session.clear", { timeout: TEST_MS }, async () => {
    await client.setSession(parentSession());
    assert.equal((await client.upsertSleepTimer(timer())).native.mirrored, true);
    assert.equal((await client.upsertSleepTimer(timer({ babyId: info.babies.Leo, babyName: "Leo" }))).native.mirrored, true);

    assert.deepEqual(await client.clearSession(), { purged: 2 });
    assert.deepEqual(await client.clearSession(), { purged: 0 });
    const error = await rejection(client.upsertSleepTimer(timer()));
    assert.equal(error.code, BridgeErrorCode.NO_SESSION);
  });

  it("rejects an invalid babyId with -32602 naming timer.babyId, before asking the platform", { timeout: TEST_MS }, async () => {
    await client.setSession(parentSession());
    const bad = timer({ babyId: "maya" });
    const error = await rejection(client.upsertSleepTimer(bad));
    assert.equal(error.code, BridgeErrorCode.INVALID_PARAMS);
    assert.equal(error.data.parameter, "timer.babyId");
    assert.equal(typeof error.data.reason, "string");
    assert.deepEqual(await putsOf(bad.id), []);
  });

  it("rejects an API origin outside the allow-list with -32602 naming apiOrigin", { timeout: TEST_MS }, async () => {
    const error = await rejection(client.setSession({ ...parentSession(), apiOrigin: "https://elsewhere.example" }));
    assert.equal(error.code, BridgeErrorCode.INVALID_PARAMS);
    assert.equal(error.data.parameter, "apiOrigin");
  });

  it("passes the platform's refusal on as -32001 with its status and code", { timeout: TEST_MS }, async () => {
    await client.setSession({ ...parentSession(), accessToken: "not-a-valid-access-token" });
    const error = await rejection(client.upsertSleepTimer(timer()));
    assert.equal(error.code, BridgeErrorCode.PLATFORM_REFUSED);
    assert.deepEqual(error.data, { status: 401, code: "unauthorized" });
  });

  it("rejects a second timer of a baby's scope with the canonical timer, which stays mirrored", { timeout: TEST_MS }, async () => {
    await client.setSession(parentSession());
    const canonical = timer();
    assert.equal((await client.upsertSleepTimer(canonical)).native.mirrored, true);
    const second = timer({ startedAt: new Date(Date.now() - 60_000).toISOString() });
    const error = await rejection(client.upsertSleepTimer(second));

    assert.equal(error.code, BridgeErrorCode.PLATFORM_REFUSED);
    assert.equal(error.data.status, 409);
    assert.equal(error.data.code, "scope_conflict");
    assert.equal(error.data.canonicalTimer.id, canonical.id);
    assert.equal(error.data.canonicalTimer.startedAt, canonical.startedAt);
    assert.deepEqual(error.data.native, { mirrored: true, reason: "mirrored" });
    assert.deepEqual(keysIn(error.data).filter((key) => /token/i.test(key)), []);
    assert.deepEqual(await putsOf(second.id).then((puts) => puts.map((put) => put.status)), [409]);
    // The canonical timer is on the desktop; the page's second one never was.
    assert.deepEqual(await client.removeSleepTimer(second.id), { removed: false });
    assert.deepEqual(await client.removeSleepTimer(canonical.id), { removed: true });
  });

  it("answers a method that does not exist with -32601", { timeout: TEST_MS }, async () => {
    const answer = nextCall((resolve) => environment.transport.onMessage((text) => {
      const message = JSON.parse(text);
      if (message.id === "raw-unknown-method") resolve(message);
    }), "the answer to the raw request");
    environment.transport.send(JSON.stringify({ jsonrpc: "2.0", id: "raw-unknown-method", method: "sleepTimer.pause", params: {} }));
    const message = await answer;
    assert.equal(message.jsonrpc, "2.0");
    assert.equal(message.error.code, BridgeErrorCode.METHOD_NOT_FOUND);
    assert.equal("result" in message, false);
    // The client ignored the answer to a request it did not make.
    assert.deepEqual(await client.clearSession(), { purged: 0 });
  });

  it("exits when the WebView's side closes, having logged and echoed no token", { timeout: TEST_MS }, async () => {
    const status = await environment.stopBridge();
    assert.deepEqual(status, { code: 0, signal: null });
    const log = environment.bridgeLog();
    for (const secret of [info.parent.accessToken, info.coach.accessToken, NATIVE_TOKEN_PREFIX]) {
      assert.ok(!log.includes(secret), "the bridge's log holds a token");
    }
    for (const line of environment.received) {
      assert.ok(!line.includes(info.parent.accessToken) && !line.includes(info.coach.accessToken));
      assert.ok(!line.includes(NATIVE_TOKEN_PREFIX));
    }
    // Each native completion was passed on once.
    assert.equal(new Set(completions.map((event) => event.timerId)).size, completions.length);
  });
});

/** Every key of every object in a JSON value. */
function keysIn(value) {
  if (Array.isArray(value)) return value.flatMap(keysIn);
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([key, member]) => [key, ...keysIn(member)]);
  }
  return [];
}
