// The client on its own, over an in-memory transport: no bridge, no
// environment.

import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it, mock } from "node:test";
import { getHeapSnapshot } from "node:v8";

import {
  BridgeError,
  BridgeErrorCode,
  DEFAULT_CALL_TIMEOUT_MS,
  SleepTimerBridgeClient,
} from "../../Sources/WebViewBridgeJS/dfl-webview-bridge-client.mjs";

/** Records what the client sends and delivers texts as the bridge would. */
class FakeTransport {
  sent = [];
  listeners = new Set();
  /** Called with each parsed request, for a transport that answers at once. */
  onSend = null;

  send(text) {
    this.sent.push(text);
    this.onSend?.(JSON.parse(text));
  }

  onMessage(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  deliver(message) {
    const text = typeof message === "string" ? message : JSON.stringify(message);
    for (const listener of [...this.listeners]) listener(text);
  }

  request(index) {
    return JSON.parse(this.sent[index]);
  }

  reply(id, result) {
    this.deliver({ jsonrpc: "2.0", id, result });
  }
}

/** A transport whose bridge can end, as the desktop app's can. */
class ClosingTransport extends FakeTransport {
  closeListeners = new Set();

  onClose(listener) {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  close() {
    for (const listener of [...this.closeListeners]) listener();
  }
}

const TIMER = {
  id: "3f2b8c1e-7a4d-4e9b-8c2f-1d6a9e0b7c53",
  babyId: "b7d2e9f4-1c3a-4e6b-8f2d-9a4c6e8b1d21",
  babyName: "Maya",
  activityType: "sleep",
  startedAt: "2026-11-29T21:41:00.000Z",
  timezone: "Europe/Berlin",
};

const SESSION = {
  apiOrigin: "https://api.dreamsforlittles.example",
  userId: "5f0c2a8e-4b1d-4e7a-9c3f-6d2e8a1b0c01",
  accessToken: "access-token-that-must-not-linger",
  actor: { mode: "self", familySubjectId: "a1e4c7d2-3f6b-4a9e-8d1c-2b5e7f9a0d10" },
};

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail("the promise resolved");
}

/** Lets pending promise callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("SleepTimerBridgeClient requests", () => {
  it("sends JSON-RPC 2.0 requests with increasing numeric ids, each one text without line breaks", async () => {
    const transport = new FakeTransport();
    const client = new SleepTimerBridgeClient(transport);
    const calls = [
      client.getCapabilities(),
      client.setSession(SESSION),
      client.clearSession(),
      client.upsertSleepTimer({ ...TIMER, note: "woke at 3\nback down by 4" }),
      client.removeSleepTimer(TIMER.id),
      client.reconcileSleepTimers([TIMER.id]),
    ];

    assert.deepEqual(transport.sent.map((text) => JSON.parse(text)), [
      { jsonrpc: "2.0", id: 1, method: "bridge.getCapabilities" },
      { jsonrpc: "2.0", id: 2, method: "session.set", params: SESSION },
      { jsonrpc: "2.0", id: 3, method: "session.clear" },
      { jsonrpc: "2.0", id: 4, method: "sleepTimer.upsert",
        params: { timer: { ...TIMER, note: "woke at 3\nback down by 4" } } },
      { jsonrpc: "2.0", id: 5, method: "sleepTimer.remove", params: { timerId: TIMER.id } },
      { jsonrpc: "2.0", id: 6, method: "sleepTimers.reconcile", params: { runningTimerIds: [TIMER.id] } },
    ]);
    for (const text of transport.sent) assert.doesNotMatch(text, /[\r\n]/);
    client.close();
    await Promise.allSettled(calls);
  });

  it("sends only the session's own fields", async () => {
    const transport = new FakeTransport();
    const client = new SleepTimerBridgeClient(transport);
    const call = client.setSession({ ...SESSION, refreshToken: "not-for-the-bridge" });
    assert.deepEqual(transport.request(0).params, SESSION);
    transport.reply(1, {});
    assert.deepEqual(await call, {});
  });

  it("resolves each call with its own result when answers come out of order", async () => {
    const transport = new FakeTransport();
    const client = new SleepTimerBridgeClient(transport);
    const capabilities = client.getCapabilities();
    const upsert = client.upsertSleepTimer(TIMER);
    const removal = client.removeSleepTimer(TIMER.id);

    transport.reply(3, { removed: true });
    transport.reply(1, { protocolVersion: 1, nativeSleepTimer: true, agentVersion: "1.0" });
    transport.reply(2, { timer: { id: TIMER.id }, native: { mirrored: true, reason: "mirrored" } });

    assert.deepEqual(await removal, { removed: true });
    assert.deepEqual(await capabilities, { protocolVersion: 1, nativeSleepTimer: true, agentVersion: "1.0" });
    assert.deepEqual(await upsert, { timer: { id: TIMER.id }, native: { mirrored: true, reason: "mirrored" } });
  });

  it("takes an answer that the transport delivers while the request is being sent", async () => {
    const transport = new FakeTransport();
    transport.onSend = (request) => transport.reply(request.id, { purged: 2 });
    const client = new SleepTimerBridgeClient(transport);
    assert.deepEqual(await client.clearSession(), { purged: 2 });
  });

  it("resolves with null and other falsy results as they are", async () => {
    const transport = new FakeTransport();
    const client = new SleepTimerBridgeClient(transport);
    const call = client.clearSession();
    transport.reply(1, null);
    assert.equal(await call, null);
  });
});

describe("SleepTimerBridgeClient errors", () => {
  it("rejects with a BridgeError carrying the bridge's code, message and data", async () => {
    const transport = new FakeTransport();
    const client = new SleepTimerBridgeClient(transport);
    const refused = client.upsertSleepTimer(TIMER);
    const invalid = client.upsertSleepTimer({ ...TIMER, babyId: "maya" });
    transport.deliver({
      jsonrpc: "2.0", id: 1,
      error: { code: -32001, message: "The platform refused the request.",
        data: { status: 403, code: "native_token_forbidden" } },
    });
    transport.deliver({
      jsonrpc: "2.0", id: 2,
      error: { code: -32602, message: "Invalid params",
        data: { parameter: "timer.babyId", reason: "timer.babyId must be a UUID" } },
    });

    const first = await rejection(refused);
    assert.ok(first instanceof BridgeError);
    assert.ok(first instanceof Error);
    assert.equal(first.name, "BridgeError");
    assert.equal(first.code, BridgeErrorCode.PLATFORM_REFUSED);
    assert.equal(first.message, "The platform refused the request.");
    assert.deepEqual(first.data, { status: 403, code: "native_token_forbidden" });

    const second = await rejection(invalid);
    assert.equal(second.code, BridgeErrorCode.INVALID_PARAMS);
    assert.deepEqual(second.data, { parameter: "timer.babyId", reason: "timer.babyId must be a UUID" });
  });

  it("rejects with an error without data when the bridge sends none", async () => {
    const transport = new FakeTransport();
    const client = new SleepTimerBridgeClient(transport);
    const call = client.getCapabilities();
    transport.deliver({ jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } });
    const error = await rejection(call);
    assert.equal(error.code, BridgeErrorCode.METHOD_NOT_FOUND);
    assert.equal(error.data, undefined);
  });

  it("still rejects, as an internal error, when the error object is malformed", async () => {
    const transport = new FakeTransport();
    const client = new SleepTimerBridgeClient(transport);
    const call = client.getCapabilities();
    transport.deliver({ jsonrpc: "2.0", id: 1, error: "broken" });
    const error = await rejection(call);
    assert.ok(error instanceof BridgeError);
    assert.equal(error.code, BridgeErrorCode.INTERNAL_ERROR);
  });

  it("has client-side codes outside the range JSON-RPC reserves", () => {
    for (const code of [BridgeErrorCode.TIMEOUT, BridgeErrorCode.CLOSED, BridgeErrorCode.SEND_FAILED]) {
      assert.ok(code > -32000 || code < -32768, `${code} is in the reserved range`);
    }
    assert.equal(new Set(Object.values(BridgeErrorCode)).size, Object.keys(BridgeErrorCode).length);
    assert.ok(Object.isFrozen(BridgeErrorCode));
  });

  it("rejects with SEND_FAILED, without the transport's error, when sending throws", async () => {
    const transport = new FakeTransport();
    transport.onSend = (request) => {
      throw new Error(`cannot send ${JSON.stringify(request)}`);
    };
    const client = new SleepTimerBridgeClient(transport);
    const error = await rejection(client.setSession(SESSION));
    assert.equal(error.code, BridgeErrorCode.SEND_FAILED);
    assert.doesNotMatch(`${error.message} ${JSON.stringify(error)} ${error.cause ?? ""}`, /access-token-that-must-not-linger/);
    // The failed call is no longer pending: a late answer is ignored.
    transport.onSend = null;
    transport.reply(1, {});
    const next = client.clearSession();
    transport.reply(2, { purged: 0 });
    assert.deepEqual(await next, { purged: 0 });
  });
});

describe("SleepTimerBridgeClient timeouts", () => {
  it("rejects with TIMEOUT when the bridge does not answer in time, and ignores the late answer", async () => {
    const transport = new FakeTransport();
    const client = new SleepTimerBridgeClient(transport, { timeoutMs: 5 });
    const error = await rejection(client.getCapabilities());
    assert.ok(error instanceof BridgeError);
    assert.equal(error.code, BridgeErrorCode.TIMEOUT);
    assert.match(error.message, /bridge\.getCapabilities/);

    transport.reply(1, { protocolVersion: 1, nativeSleepTimer: false });
    const next = client.removeSleepTimer(TIMER.id);
    transport.reply(2, { removed: false });
    assert.deepEqual(await next, { removed: false });
  });

  it("takes a per-call timeout over the client's default", async () => {
    const transport = new FakeTransport();
    const client = new SleepTimerBridgeClient(transport, { timeoutMs: 0 });
    const error = await rejection(client.clearSession({ timeoutMs: 5 }));
    assert.equal(error.code, BridgeErrorCode.TIMEOUT);
  });

  it("times a call out after DEFAULT_CALL_TIMEOUT_MS when no timeout is given", async (t) => {
    t.mock.timers.enable({ apis: ["setTimeout"] });
    const transport = new FakeTransport();
    const client = new SleepTimerBridgeClient(transport);
    const call = client.getCapabilities();
    const outcome = call.then(() => "resolved", (error) => error.code);
    t.mock.timers.tick(DEFAULT_CALL_TIMEOUT_MS - 1);
    await settle();
    transport.deliver("not yet");
    t.mock.timers.tick(1);
    assert.equal(await outcome, BridgeErrorCode.TIMEOUT);
    assert.equal(DEFAULT_CALL_TIMEOUT_MS, 60_000);
  });

  it("waits for as long as it takes with a timeout of 0 or Infinity", async () => {
    const transport = new FakeTransport();
    const client = new SleepTimerBridgeClient(transport, { timeoutMs: 5 });
    const outcomes = [];
    const calls = [
      client.getCapabilities({ timeoutMs: 0 }),
      client.getCapabilities({ timeoutMs: Infinity }),
      new SleepTimerBridgeClient(transport, { timeoutMs: 0 }).getCapabilities(),
    ];
    calls.forEach((call, index) => call.then(() => outcomes.push(index), () => outcomes.push(`rejected ${index}`)));
    // Outlasts a 5 ms timeout by far; nothing may have been rejected.
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(outcomes, []);
    transport.reply(1, {});
    transport.reply(2, {});
    transport.reply(1, {}); // The other client's first call.
    await Promise.all(calls);
  });

  it("does not time out a call that was answered", async () => {
    const transport = new FakeTransport();
    const client = new SleepTimerBridgeClient(transport, { timeoutMs: 5 });
    const call = client.removeSleepTimer(TIMER.id);
    transport.reply(1, { removed: true });
    assert.deepEqual(await call, { removed: true });
    await new Promise((resolve) => setTimeout(resolve, 30));
  });
});

describe("SleepTimerBridgeClient when the bridge ends", () => {
  it("rejects the calls in flight with CLOSED, tells its listeners, and goes on working", async () => {
    const transport = new ClosingTransport();
    const client = new SleepTimerBridgeClient(transport, { timeoutMs: 0 });
    let told = 0;
    client.onClose(() => told++);
    const pending = [client.setSession(SESSION), client.upsertSleepTimer(TIMER)];
    transport.close();
    for (const call of pending) {
      const error = await rejection(call);
      assert.ok(error instanceof BridgeError);
      assert.equal(error.code, BridgeErrorCode.CLOSED);
      assert.match(error.message, /may or may not have taken effect/);
    }
    assert.equal(told, 1);

    const next = client.upsertSleepTimer(TIMER);
    transport.reply(transport.request(2).id, { timer: TIMER, native: { mirrored: true, reason: "mirrored" } });
    assert.equal((await next).native.mirrored, true);
  });

  it("ignores an end of the bridge after close(), and a transport without onClose", async () => {
    const transport = new ClosingTransport();
    const client = new SleepTimerBridgeClient(transport);
    let told = 0;
    client.onClose(() => told++);
    client.close();
    transport.close();
    assert.equal(told, 0);
    assert.equal(transport.closeListeners.size, 0);
    const plain = new SleepTimerBridgeClient(new FakeTransport());
    plain.close();
  });
});

describe("SleepTimerBridgeClient and malformed strings", () => {
  it("sends lone surrogates as U+FFFD, in values and keys, so the bridge can parse every request", async () => {
    const transport = new FakeTransport();
    const client = new SleepTimerBridgeClient(transport);
    const call = client.upsertSleepTimer({ ...TIMER, babyName: "Ma\uD800ya", note: "\uDC00", details: { ["k\uD83D"]: ["\uD83D\uDE00"] } });
    const text = transport.sent[0];
    assert.doesNotMatch(text, /\\u[dD][89abAB]/, "an escaped lone surrogate reaches the bridge");
    assert.equal(text, text.toWellFormed());
    const { params } = JSON.parse(text);
    assert.equal(params.timer.babyName, "Ma\uFFFDya");
    assert.equal(params.timer.note, "\uFFFD");
    assert.deepEqual(params.timer.details, { ["k\uFFFD"]: ["\uD83D\uDE00"] });
    transport.reply(1, { timer: params.timer, native: { mirrored: false, reason: "not-sleep" } });
    assert.equal((await call).timer.babyName, "Ma\uFFFDya");
  });
});

describe("SleepTimerBridgeClient close", () => {
  it("rejects every pending call with CLOSED and stops listening", async () => {
    const transport = new FakeTransport();
    const client = new SleepTimerBridgeClient(transport, { timeoutMs: 60_000 });
    const calls = [client.getCapabilities(), client.upsertSleepTimer(TIMER)];
    assert.equal(transport.listeners.size, 1);
    client.close();
    for (const call of calls) {
      const error = await rejection(call);
      assert.ok(error instanceof BridgeError);
      assert.equal(error.code, BridgeErrorCode.CLOSED);
    }
    assert.equal(transport.listeners.size, 0);
  });

  it("rejects calls made after close without sending them", async () => {
    const transport = new FakeTransport();
    const client = new SleepTimerBridgeClient(transport);
    client.close();
    client.close();
    const error = await rejection(client.reconcileSleepTimers([]));
    assert.equal(error.code, BridgeErrorCode.CLOSED);
    assert.deepEqual(transport.sent, []);
  });

  it("tells no listener of a completion after close", () => {
    const transport = new FakeTransport();
    const client = new SleepTimerBridgeClient(transport);
    const heard = [];
    client.onCompletedNatively((event) => heard.push(event));
    client.close();
    client.onCompletedNatively((event) => heard.push(event))();
    transport.deliver({ jsonrpc: "2.0", method: "sleepTimer.completedNatively",
      params: { timerId: TIMER.id, activityId: "6a1f0e2d-5b4c-4d3e-9f8a-7b6c5d4e3f2a" } });
    assert.deepEqual(heard, []);
  });
});

describe("SleepTimerBridgeClient notifications and stray messages", () => {
  const COMPLETED = {
    jsonrpc: "2.0",
    method: "sleepTimer.completedNatively",
    params: { timerId: TIMER.id, activityId: "6a1f0e2d-5b4c-4d3e-9f8a-7b6c5d4e3f2a" },
  };

  it("tells each listener of a native completion until it unsubscribes", () => {
    const transport = new FakeTransport();
    const client = new SleepTimerBridgeClient(transport);
    const first = [];
    const second = [];
    const unsubscribe = client.onCompletedNatively((event) => first.push(event));
    client.onCompletedNatively((event) => second.push(event));
    transport.deliver(COMPLETED);
    unsubscribe();
    transport.deliver(COMPLETED);
    assert.deepEqual(first, [COMPLETED.params]);
    assert.deepEqual(second, [COMPLETED.params, COMPLETED.params]);
    client.close();
  });

  it("passes on only timerId and activityId", () => {
    const transport = new FakeTransport();
    const client = new SleepTimerBridgeClient(transport);
    const heard = [];
    client.onCompletedNatively((event) => heard.push(event));
    transport.deliver({ ...COMPLETED, params: { ...COMPLETED.params, extra: "x" } });
    assert.deepEqual(heard, [COMPLETED.params]);
    client.close();
  });

  it("ignores unknown notifications, malformed ones, answers for unknown ids and texts that are not JSON", async () => {
    const transport = new FakeTransport();
    const client = new SleepTimerBridgeClient(transport);
    const heard = [];
    client.onCompletedNatively((event) => heard.push(event));
    const call = client.getCapabilities();
    const strays = [
      { jsonrpc: "2.0", method: "sleepTimer.somethingNew", params: { timerId: TIMER.id } },
      { jsonrpc: "2.0", method: "sleepTimer.completedNatively" },
      { jsonrpc: "2.0", method: "sleepTimer.completedNatively", params: { timerId: 7, activityId: null } },
      { jsonrpc: "2.0", method: "sleepTimer.completedNatively", params: [TIMER.id, "a"] },
      { jsonrpc: "2.0", id: 99, result: { removed: true } },
      { jsonrpc: "2.0", id: "1", result: "a string id is not this client's" },
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } },
      { jsonrpc: "1.0", id: 1, result: "not JSON-RPC 2.0" },
      { jsonrpc: "2.0", id: 1 },
      "not json at all",
      "",
      "null",
      "42",
      "[]",
      '"text"',
    ];
    for (const stray of strays) assert.doesNotThrow(() => transport.deliver(stray));
    for (const listener of transport.listeners) assert.doesNotThrow(() => listener({ not: "a string" }));
    await settle();
    assert.deepEqual(heard, []);

    transport.reply(1, { protocolVersion: 1, nativeSleepTimer: false });
    assert.deepEqual(await call, { protocolVersion: 1, nativeSleepTimer: false });
    client.close();
  });

  it("takes answers and notifications that come in a batch", async () => {
    const transport = new FakeTransport();
    const client = new SleepTimerBridgeClient(transport);
    const heard = [];
    client.onCompletedNatively((event) => heard.push(event));
    const first = client.removeSleepTimer(TIMER.id);
    const second = client.reconcileSleepTimers([]);
    transport.deliver([
      { jsonrpc: "2.0", id: 2, result: { removed: 0 } },
      COMPLETED,
      7,
      { jsonrpc: "2.0", id: 1, error: { code: -32010, message: "No session", data: { status: 0, code: "no_session" } } },
    ]);
    assert.deepEqual(await second, { removed: 0 });
    assert.equal((await rejection(first)).code, BridgeErrorCode.NO_SESSION);
    assert.deepEqual(heard, [COMPLETED.params]);
    client.close();
  });

  it("still tells the other listeners when one throws, and reports that error as uncaught", async () => {
    const transport = new FakeTransport();
    const client = new SleepTimerBridgeClient(transport);
    const heard = [];
    const failure = new Error("a listener's own bug");
    const reported = [];
    const onUncaught = (error) => reported.push(error);
    const listeners = process.listeners("uncaughtException");
    process.removeAllListeners("uncaughtException");
    process.on("uncaughtException", onUncaught);
    try {
      client.onCompletedNatively(() => {
        throw failure;
      });
      client.onCompletedNatively((event) => heard.push(event));
      assert.doesNotThrow(() => transport.deliver(COMPLETED));
      await settle();
    } finally {
      process.off("uncaughtException", onUncaught);
      for (const listener of listeners) process.on("uncaughtException", listener);
    }
    assert.deepEqual(heard, [COMPLETED.params]);
    assert.deepEqual(reported, [failure]);
    client.close();
  });
});

describe("SleepTimerBridgeClient and the access token", () => {
  // The token is made at run time and searched for as bytes, so that the
  // only string copies of it in the heap are the ones under test.
  const needle = Buffer.from(`dfl-access-${randomBytes(16).toString("hex")}`);

  it("keeps nothing that holds the access token once session.set is sent, even while it is pending", { timeout: 120_000 }, async () => {
    let answer = null;
    const transport = {
      send(text) {
        // Keeps the id alone, as a wrapper that passed the text on would.
        answer = JSON.parse(text).id;
      },
      onMessage(listener) {
        this.deliver = listener;
        return () => {};
      },
    };
    const client = new SleepTimerBridgeClient(transport, { timeoutMs: 600_000 });
    const held = { token: needle.toString() };
    const call = client.setSession({ ...SESSION, accessToken: held.token });
    // The control: a reachable copy is found.
    assert.equal(await heapHolds(needle), true);
    delete held.token;
    assert.equal(await heapHolds(needle), false, "the pending call keeps the access token reachable");

    transport.deliver(JSON.stringify({ jsonrpc: "2.0", id: answer, result: {} }));
    assert.deepEqual(await call, {});
    client.close();
  });
});

/**
 * Whether a heap snapshot (taken after a full garbage collection) holds
 * `needle`. Read to its end through events: Node 18's snapshot stream
 * neither ends an async iteration nor survives being destroyed midway.
 */
function heapHolds(needle) {
  return new Promise((resolve, reject) => {
    const snapshot = getHeapSnapshot();
    let carry = Buffer.alloc(0);
    let found = false;
    snapshot.on("data", (chunk) => {
      if (found) return;
      const bytes = Buffer.concat([carry, Buffer.from(chunk)]);
      found = bytes.includes(needle);
      carry = bytes.subarray(-needle.length);
    });
    snapshot.on("end", () => resolve(found));
    snapshot.on("error", reject);
  });
}
