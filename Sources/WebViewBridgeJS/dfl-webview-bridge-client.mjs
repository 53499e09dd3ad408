/**
 * The web app's client for dfl-webview-bridge, the WebView's native helper
 * for the Sleep timer. It speaks JSON-RPC 2.0 over a transport that the
 * desktop wrapper gives the page, because a WebView cannot start processes:
 * the wrapper relays each text to the bridge (one line on its stdin) and
 * each line the bridge writes back to the page.
 *
 * An ES module without dependencies and without Node APIs, so that it runs
 * as it is in the WebView. It never logs: the session call carries the
 * family's access token. Its types are in dfl-webview-bridge-client.d.ts.
 *
 * In the Dreams for Littles desktop app the transport is
 * `window.dreamsForLittlesDesktop.transport`, which the app injects into
 * the web app's top frame:
 *
 *     const client = new SleepTimerBridgeClient(window.dreamsForLittlesDesktop.transport);
 *
 * @module dfl-webview-bridge-client
 */

/**
 * Error codes a call can be rejected with. The bridge's own: the standard
 * JSON-RPC ones, and -32001, -32002, -32003 and -32010, whose data is
 * `{status, code}` (the HTTP status and the platform's error code; status 0
 * when no HTTP answer was had). The client's own lie outside the range
 * JSON-RPC reserves (-32768 to -32000), so they never collide with an
 * answer of the bridge.
 */
export const BridgeErrorCode = Object.freeze({
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  /** data: `{parameter, reason}`, e.g. `{parameter: "timer.babyId", ...}`. */
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /**
   * The platform answered with an error; data.status is its HTTP status.
   * For 409 scope_conflict, data also holds canonicalTimer (the running
   * timer of that baby and activity type, which wins) and native (whether
   * the desktop now shows the canonical timer): see {@link ScopeConflictData}.
   */
  PLATFORM_REFUSED: -32001,
  /** The platform could not be reached (data `{status: 0, code: "unreachable"}`). */
  PLATFORM_UNREACHABLE: -32002,
  /** The desktop agent could not be asked or refused (data `{status: 0, code: "agent_unavailable"}`). */
  AGENT_UNAVAILABLE: -32003,
  /** No session.set yet, or after session.clear (data.code "no_session"). */
  NO_SESSION: -32010,
  /**
   * Client-side: no answer within the call's timeout. The bridge may still
   * carry the call out (an upsert may still reach the platform).
   */
  TIMEOUT: -31001,
  /**
   * Client-side: close() was called, before or while the call was pending;
   * or the bridge ended before it answered (the transport's onClose), in
   * which case the call may or may not have taken effect.
   */
  CLOSED: -31002,
  /** Client-side: the transport threw when given the request. */
  SEND_FAILED: -31003,
});

/** A call's failure: the JSON-RPC error the bridge answered, or one of the client's own. */
export class BridgeError extends Error {
  /**
   * @param {number} code one of {@link BridgeErrorCode} (or another the bridge may add)
   * @param {string} message
   * @param {unknown} [data] `{status, code}` or `{parameter, reason}`, as the bridge sent it
   */
  constructor(code, message, data) {
    super(message);
    this.name = "BridgeError";
    /** @type {number} */
    this.code = code;
    /** @type {unknown} */
    this.data = data;
  }
}

/**
 * @typedef {object} Transport What the wrapper gives the page.
 * @property {(text: string) => void} send Hands one JSON text to the bridge.
 *   A text from JSON.stringify holds no raw line break, so the wrapper can
 *   write it as one line.
 * @property {(listener: (text: string) => void) => (() => void)} onMessage
 *   Registers for each text the bridge writes; returns the unsubscribe.
 * @property {(listener: () => void) => (() => void)} [onClose]
 *   Registers for the end of the bridge (the wrapper starts a new one, which
 *   knows no session); returns the unsubscribe. Optional: a transport
 *   without it never closes.
 */

/**
 * @typedef {"mirrored" | "coach-view-as" | "not-sleep" | "name-not-displayable" | "agent-unavailable"
 *   | "token-not-issued" | "session-changed"} NativeReason Why a timer is or is not on the desktop.
 *   "name-not-displayable": nothing of the baby's name can be shown (the timer is still saved on the
 *   platform; a name that can be shown in part is shown cleaned and shortened instead).
 */

/**
 * @typedef {{mirrored: boolean, reason: NativeReason, detail?: string}} NativeState
 *   What became of a timer on the desktop; detail says why the agent refused it.
 */

/**
 * @typedef {object} ScopeConflictData The data of a PLATFORM_REFUSED error whose code is
 *   "scope_conflict": another timer already runs for this baby and activity type, and it wins.
 * @property {409} status
 * @property {"scope_conflict"} code
 * @property {object} canonicalTimer The platform's running timer for that scope: adopt it in place of
 *   the one just started.
 * @property {NativeState} native Whether the desktop shows the canonical timer (for a self-mode Sleep).
 */

/**
 * @typedef {object} CallOptions
 * @property {number} [timeoutMs] Overrides the client's default for this call;
 *   0 or Infinity waits for as long as it takes.
 */

const COMPLETED_NATIVELY = "sleepTimer.completedNatively";

/**
 * The default timeout of a call, in milliseconds. The bridge bounds its own
 * work (the agent 5 s, the platform 10 s to connect and 30 s in all, the
 * hand-over to the agent 10 s), so an answer later than this will not come.
 */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

/**
 * `value` with every string, and every object key, well-formed: a lone
 * surrogate becomes U+FFFD. JSON.stringify writes a lone surrogate as an
 * escape the bridge refuses as malformed, and that refusal (a parse error,
 * id null) could not be matched to the call, which would never settle.
 */
export function wellFormed(value) {
  if (typeof value === "string") return toWellFormed(value);
  if (value === null || typeof value !== "object") return value;
  if (typeof value.toJSON === "function") return wellFormed(value.toJSON());
  if (Array.isArray(value)) return value.map((element) => wellFormed(element));
  const copy = {};
  for (const [key, member] of Object.entries(value)) copy[toWellFormed(key)] = wellFormed(member);
  return copy;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function toWellFormed(text) {
  return typeof text.toWellFormed === "function" ? text.toWellFormed() : text.replace(LONE_SURROGATE, "\uFFFD");
}

/**
 * The Sleep timer methods of the bridge, as promises. Requests carry
 * increasing numeric ids; answers are matched by id, so they may come in
 * any order. Anything else the transport delivers (unknown notifications,
 * answers to ids this client is not waiting for, texts that are not JSON)
 * is ignored, as a page must not break on what another part of the wrapper
 * sends.
 */
export class SleepTimerBridgeClient {
  #transport;
  #unsubscribe;
  #timeoutMs;
  #nextId = 1;
  /** id → {resolve, reject, timer}; never the params, which may hold the access token. */
  #pending = new Map();
  #completedListeners = new Set();
  #closeListeners = new Set();
  #closed = false;

  /**
   * @param {Transport} transport
   * @param {{timeoutMs?: number}} [options] The timeout of every call that
   *   names none of its own: DEFAULT_CALL_TIMEOUT_MS unless given; 0 or
   *   Infinity waits for as long as it takes. A call given up on may still
   *   take effect.
   */
  constructor(transport, { timeoutMs = DEFAULT_CALL_TIMEOUT_MS } = {}) {
    this.#transport = transport;
    this.#timeoutMs = timeoutMs;
    const unsubscribeMessages = transport.onMessage((text) => this.#receive(text));
    const unsubscribeClose = typeof transport.onClose === "function"
      ? transport.onClose(() => this.#transportClosed())
      : undefined;
    this.#unsubscribe = () => {
      unsubscribeMessages?.();
      unsubscribeClose?.();
    };
  }

  /**
   * Whether the desktop can show Sleep timers: nativeSleepTimer is true only
   * while dfl-sleep-agent answers on the session bus.
   * @param {CallOptions} [options]
   * @returns {Promise<{protocolVersion: number, nativeSleepTimer: boolean, agentVersion?: string}>}
   */
  getCapabilities(options) {
    return this.#call("bridge.getCapabilities", undefined, options);
  }

  /**
   * Tells the bridge who is signed in. The access token goes into the
   * request text and nowhere else: this client keeps no reference to it
   * once the text is handed to the transport.
   * @param {{apiOrigin: string, userId: string, accessToken: string,
   *   actor: {mode: "self" | "coach", familySubjectId: string}}} session
   * @param {CallOptions} [options]
   * @returns {Promise<{}>}
   */
  setSession({ apiOrigin, userId, accessToken, actor }, options) {
    return this.#call("session.set", { apiOrigin, userId, accessToken, actor }, options);
  }

  /**
   * Sign-out: the bridge forgets the session and the desktop forgets the
   * user's mirrored timers.
   * @param {CallOptions} [options]
   * @returns {Promise<{purged: number}>}
   */
  clearSession(options) {
    return this.#call("session.clear", undefined, options);
  }

  /**
   * Starts or updates a running timer on the platform, through the bridge.
   * native.mirrored tells whether the desktop shows it (family self-mode,
   * Sleep, agent running); the native action token never comes back here.
   * @param {{id: string, babyId: string, babyName: string,
   *   activityType: "sleep" | "breastfeeding" | "pumping", startedAt: string,
   *   timezone: string, details?: object, note?: string | null}} timer
   * @param {CallOptions} [options]
   * The name need not fit the desktop: it is shown cleaned (no control or
   * bidirectional override characters, at most 64 characters), and a name
   * with nothing to show never keeps the timer from the platform. A
   * scope_conflict rejects with {@link ScopeConflictData}: the canonical
   * timer, mirrored in place of this one.
   * @returns {Promise<{timer: object, native: NativeState}>}
   */
  upsertSleepTimer(timer, options) {
    return this.#call("sleepTimer.upsert", { timer }, options);
  }

  /**
   * Takes a timer off the desktop (stopped, discarded or completed in the app).
   * @param {string} timerId
   * @param {CallOptions} [options]
   * @returns {Promise<{removed: boolean}>}
   */
  removeSleepTimer(timerId, options) {
    return this.#call("sleepTimer.remove", { timerId }, options);
  }

  /**
   * Takes off the desktop every timer of the session's scope that is not
   * running any more. Pass an array: anything else is refused by the bridge
   * rather than taken as "none running".
   * @param {string[]} runningTimerIds
   * @param {CallOptions} [options]
   * @returns {Promise<{removed: number}>}
   */
  reconcileSleepTimers(runningTimerIds, options) {
    return this.#call("sleepTimers.reconcile", { runningTimerIds }, options);
  }

  /**
   * Called when the desktop completed a Sleep timer natively, so that the
   * app refreshes Home and history.
   * @param {(event: {timerId: string, activityId: string}) => void} listener
   * @returns {() => void} unsubscribe
   */
  onCompletedNatively(listener) {
    if (this.#closed) return () => {};
    this.#completedListeners.add(listener);
    return () => this.#completedListeners.delete(listener);
  }

  /**
   * Called when the bridge behind the transport ended. The calls in flight
   * were rejected with CLOSED just before; the wrapper starts a new bridge,
   * which knows no session, so the app calls setSession again (and may
   * upsert its running timer again). The client itself stays usable.
   * @param {() => void} listener
   * @returns {() => void} unsubscribe
   */
  onClose(listener) {
    if (this.#closed) return () => {};
    this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  /**
   * Stops listening to the transport and rejects every pending call with
   * CLOSED; later calls reject at once. The transport itself is the
   * wrapper's to close.
   */
  close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribe?.();
    this.#completedListeners.clear();
    this.#closeListeners.clear();
    this.#rejectPending("The bridge client was closed.");
  }

  #rejectPending(message) {
    for (const id of [...this.#pending.keys()]) {
      this.#settle(id).reject(new BridgeError(BridgeErrorCode.CLOSED, message));
    }
  }

  #transportClosed() {
    if (this.#closed) return;
    this.#rejectPending("The bridge ended before it answered; the call may or may not have taken effect.");
    tell([...this.#closeListeners], undefined);
  }

  #call(method, params, { timeoutMs = this.#timeoutMs } = {}) {
    if (this.#closed) {
      return Promise.reject(new BridgeError(BridgeErrorCode.CLOSED, "The bridge client was closed."));
    }
    const id = this.#nextId++;
    const call = { resolve: undefined, reject: undefined, timer: undefined };
    const promise = new Promise((resolve, reject) => {
      call.resolve = resolve;
      call.reject = reject;
    });
    // Registered before sending: a transport may answer synchronously.
    this.#pending.set(id, call);
    if (Number.isFinite(timeoutMs) && timeoutMs > 0) {
      // Capped at what setTimeout can hold (about 24.8 days).
      call.timer = setTimeout(() => {
        this.#settle(id)?.reject(new BridgeError(BridgeErrorCode.TIMEOUT, `No answer to ${method} within ${timeoutMs} ms.`));
      }, Math.min(timeoutMs, 0x7fffffff));
    }
    // No closure refers to params or the text, so that nothing keeps the
    // access token alive once send() returns.
    const request = { jsonrpc: "2.0", id, method };
    if (params !== undefined) request.params = wellFormed(params);
    try {
      this.#transport.send(JSON.stringify(request));
    } catch {
      // The transport's error is left out: its message might quote the
      // text, which may hold the access token.
      this.#settle(id)?.reject(new BridgeError(BridgeErrorCode.SEND_FAILED, `The transport could not send ${method}.`));
    }
    return promise;
  }

  /** Takes a call off the pending ones: it, or undefined when it was settled already. */
  #settle(id) {
    const call = this.#pending.get(id);
    if (!call) return undefined;
    this.#pending.delete(id);
    clearTimeout(call.timer);
    return call;
  }

  #receive(text) {
    if (this.#closed || typeof text !== "string") return;
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    for (const member of Array.isArray(message) ? message : [message]) {
      if (member !== null && typeof member === "object") this.#dispatch(member);
    }
  }

  #dispatch(message) {
    if (message.jsonrpc !== "2.0") return;
    if (typeof message.method === "string" && message.id === undefined) {
      this.#notification(message.method, message.params);
      return;
    }
    if (typeof message.id !== "number" || !this.#pending.has(message.id)) return;
    if ("error" in message) {
      const error = message.error !== null && typeof message.error === "object" ? message.error : {};
      this.#settle(message.id).reject(new BridgeError(
        typeof error.code === "number" ? error.code : BridgeErrorCode.INTERNAL_ERROR,
        typeof error.message === "string" ? error.message : "The bridge answered with a malformed error.",
        error.data));
    } else if ("result" in message) {
      this.#settle(message.id).resolve(message.result);
    }
  }

  #notification(method, params) {
    if (method !== COMPLETED_NATIVELY || params === null || typeof params !== "object") return;
    const { timerId, activityId } = params;
    if (typeof timerId !== "string" || typeof activityId !== "string") return;
    tell([...this.#completedListeners], { timerId, activityId });
  }
}

/**
 * Calls each listener with `event`. One listener's failure must not keep
 * the others from hearing; it is reported as an uncaught error, not logged.
 */
function tell(listeners, event) {
  for (const listener of listeners) {
    try {
      listener(event);
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}
