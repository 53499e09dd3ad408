/**
 * Types of dfl-webview-bridge-client.mjs: the web app's client for
 * dfl-webview-bridge, the WebView's native helper for the Sleep timer.
 */

/** Error codes a call can be rejected with. */
export declare const BridgeErrorCode: Readonly<{
  PARSE_ERROR: -32700;
  INVALID_REQUEST: -32600;
  METHOD_NOT_FOUND: -32601;
  /** data: `{parameter, reason}`. */
  INVALID_PARAMS: -32602;
  INTERNAL_ERROR: -32603;
  /** The platform answered with an error; data.status is its HTTP status. */
  PLATFORM_REFUSED: -32001;
  /** The platform could not be reached (data `{status: 0, code: "unreachable"}`). */
  PLATFORM_UNREACHABLE: -32002;
  /** The desktop agent could not be asked or refused (data `{status: 0, code: "agent_unavailable"}`). */
  AGENT_UNAVAILABLE: -32003;
  /** No session.set yet, or after session.clear (data.code "no_session"). */
  NO_SESSION: -32010;
  /** Client-side: no answer within the call's timeout; the bridge may still carry the call out. */
  TIMEOUT: -31001;
  /** Client-side: close() was called, or the bridge ended before it answered. */
  CLOSED: -31002;
  /** Client-side: the transport threw when given the request. */
  SEND_FAILED: -31003;
}>;

export type BridgeErrorCodeValue = (typeof BridgeErrorCode)[keyof typeof BridgeErrorCode];

/** What the bridge's own errors carry: the HTTP status (0 without an answer) and the platform's code. */
export interface PlatformErrorData {
  status: number;
  code: string;
}

/**
 * What PLATFORM_REFUSED carries for a 409 scope_conflict: the platform's
 * canonical timer for that baby and activity, and what became of it on the
 * desktop (the canonical one is mirrored in place of the page's).
 */
export interface ScopeConflictData extends PlatformErrorData {
  code: "scope_conflict";
  canonicalTimer: Record<string, unknown>;
  native: { mirrored: boolean; reason: NativeReason; detail?: string };
}

/** What INVALID_PARAMS carries. */
export interface InvalidParamsData {
  parameter: string;
  reason: string;
}

/** A call's failure: the JSON-RPC error the bridge answered, or one of the client's own. */
export declare class BridgeError extends Error {
  constructor(code: number, message: string, data?: unknown);
  readonly name: "BridgeError";
  /** One of BridgeErrorCode, or another code the bridge may add. */
  readonly code: BridgeErrorCodeValue | number;
  readonly data: ScopeConflictData | PlatformErrorData | InvalidParamsData | unknown;
}

/** What the desktop wrapper gives the page. */
export interface Transport {
  /** Hands one JSON text to the bridge (one line on its stdin). */
  send(text: string): void;
  /** Registers for each text the bridge writes; returns the unsubscribe. */
  onMessage(listener: (text: string) => void): () => void;
  /** Registers for the end of the bridge (a new one starts without a session); returns the unsubscribe. */
  onClose?(listener: () => void): () => void;
}

export interface CallOptions {
  /** Overrides the client's default for this call; 0 or Infinity waits for as long as it takes. */
  timeoutMs?: number;
}

export interface ClientOptions {
  /** The timeout of every call that names none: DEFAULT_CALL_TIMEOUT_MS unless given; 0 or Infinity for none. */
  timeoutMs?: number;
}

export interface Capabilities {
  protocolVersion: number;
  /** Whether the desktop can show Sleep timers (dfl-sleep-agent answers on the session bus). */
  nativeSleepTimer: boolean;
  agentVersion?: string;
}

export interface Session {
  apiOrigin: string;
  userId: string;
  /** The family's bearer token: passed to the bridge, kept nowhere by the client. */
  accessToken: string;
  actor: { mode: "self" | "coach"; familySubjectId: string };
}

export type ActivityType = "sleep" | "breastfeeding" | "pumping";

export interface Timer {
  id: string;
  babyId: string;
  babyName: string;
  activityType: ActivityType;
  /** ISO-8601 with a zone, e.g. 2026-11-29T21:41:00.000Z. */
  startedAt: string;
  /** An IANA time zone name, e.g. Europe/Berlin. */
  timezone: string;
  details?: Record<string, unknown>;
  note?: string | null;
}

/**
 * Why the desktop shows a timer or not: `name-not-displayable` when the
 * baby's name has nothing a notification can show, `session-changed` when
 * the session was cleared or switched while the platform answered (the
 * token is not handed over for a session that ended).
 */
export type NativeReason =
  | "mirrored"
  | "coach-view-as"
  | "not-sleep"
  | "name-not-displayable"
  | "agent-unavailable"
  | "token-not-issued"
  | "session-changed";

export interface UpsertResult {
  /** The platform's timer as it answered. */
  timer: Timer & { familySubjectId: string; revision: number; [member: string]: unknown };
  /** Whether the desktop shows it; the native action token never comes back here. */
  native: { mirrored: boolean; reason: NativeReason; detail?: string };
}

export interface CompletedNatively {
  timerId: string;
  activityId: string;
}

/** The default timeout of a call, in milliseconds. */
export declare const DEFAULT_CALL_TIMEOUT_MS: 60000;

/** `value` with every string and object key well-formed (a lone surrogate becomes U+FFFD). */
export declare function wellFormed<T>(value: T): T;

/** The Sleep timer methods of the bridge, as promises. */
export declare class SleepTimerBridgeClient {
  constructor(transport: Transport, options?: ClientOptions);
  getCapabilities(options?: CallOptions): Promise<Capabilities>;
  setSession(session: Session, options?: CallOptions): Promise<{ agentUnavailable?: true }>;
  clearSession(options?: CallOptions): Promise<{ purged: number; agentUnavailable?: true }>;
  upsertSleepTimer(timer: Timer, options?: CallOptions): Promise<UpsertResult>;
  removeSleepTimer(timerId: string, options?: CallOptions): Promise<{ removed: boolean }>;
  reconcileSleepTimers(runningTimerIds: string[], options?: CallOptions): Promise<{ removed: number }>;
  /** A Sleep timer was completed on the desktop: refresh Home and history. */
  onCompletedNatively(listener: (event: CompletedNatively) => void): () => void;
  /** The bridge ended (calls in flight were rejected with CLOSED): call setSession again. */
  onClose(listener: () => void): () => void;
  close(): void;
}

/** What the Dreams for Littles desktop app gives the web app's top frame. */
export interface DreamsForLittlesDesktop {
  readonly protocolVersion: 1;
  readonly transport: Transport & { onClose(listener: () => void): () => void };
}

declare global {
  interface Window {
    /** Present only inside the Dreams for Littles desktop app, in the web app's top frame. */
    readonly dreamsForLittlesDesktop?: DreamsForLittlesDesktop;
  }
}
