// The client's declarations (dfl-webview-bridge-client.d.ts, reached through
// the .d.mts beside the .mjs) checked by the TypeScript compiler, as a web
// app that imports the client would be: a correct use compiles, a wrong one
// is refused naming the mistake.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";

import { REPO } from "./bridge-environment.mjs";

const CLIENT = path.join(REPO, "Sources", "WebViewBridgeJS", "dfl-webview-bridge-client.mjs");

/** Runs tsc on one .mts file that imports the client: {code, output}. */
async function typecheck(source) {
  const directory = await mkdtemp(path.join(tmpdir(), "dfl-types-"));
  try {
    const file = path.join(directory, "use.mts");
    await writeFile(file, source.replaceAll("CLIENT", CLIENT));
    return await new Promise((resolve, reject) => {
      execFile("tsc", ["--noEmit", "--strict", "--target", "es2022", "--module", "node16", "--moduleResolution", "node16",
        "--lib", "es2022,dom", file], { timeout: 120_000 }, (error, stdout, stderr) => {
        if (error && error.code === "ENOENT") {
          reject(new Error("tsc is missing: install the Debian package node-typescript"));
          return;
        }
        resolve({ code: error ? error.code : 0, output: stdout + stderr });
      });
    });
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

describe("dfl-webview-bridge-client.d.ts", () => {
  it("types a web app's use of the client and of the desktop app's transport", { timeout: 180_000 }, async () => {
    const { code, output } = await typecheck(`
      import { SleepTimerBridgeClient, BridgeError, BridgeErrorCode, DEFAULT_CALL_TIMEOUT_MS } from "CLIENT";
      const desktop = window.dreamsForLittlesDesktop;
      if (desktop) {
        const client = new SleepTimerBridgeClient(desktop.transport, { timeoutMs: DEFAULT_CALL_TIMEOUT_MS });
        client.onClose(() => void client.setSession({ apiOrigin: "https://a.example", userId: "u", accessToken: "t",
          actor: { mode: "self", familySubjectId: "f" } }));
        client.onCompletedNatively(({ timerId, activityId }) => console.info(timerId.length + activityId.length));
        client.upsertSleepTimer({ id: "i", babyId: "b", babyName: "Maya", activityType: "sleep",
          startedAt: "2026-11-29T21:41:00.000Z", timezone: "Europe/Berlin" }, { timeoutMs: 0 })
          .then((reply) => { const mirrored: boolean = reply.native.mirrored; return mirrored; })
          .catch((error: unknown) => error instanceof BridgeError && error.code === BridgeErrorCode.CLOSED);
      }
    `);
    assert.equal(code, 0, output);
  });

  it("refuses an activity type the bridge does not know", { timeout: 180_000 }, async () => {
    const { code, output } = await typecheck(`
      import { SleepTimerBridgeClient } from "CLIENT";
      const client = new SleepTimerBridgeClient(window.dreamsForLittlesDesktop!.transport);
      client.upsertSleepTimer({ id: "i", babyId: "b", babyName: "Maya", activityType: "nap",
        startedAt: "2026-11-29T21:41:00.000Z", timezone: "Europe/Berlin" });
    `);
    assert.notEqual(code, 0);
    assert.match(output, /"nap"/);
  });
  it("names every reason the bridge gives, and a 409's canonical timer", { timeout: 180_000 }, async () => {
    const { code, output } = await typecheck(`
      import { BridgeError, BridgeErrorCode, type NativeReason, type ScopeConflictData } from "CLIENT";
      function words(reason: NativeReason): string {
        switch (reason) {
          case "mirrored": return "on the desktop";
          case "coach-view-as": return "a coach's view";
          case "not-sleep": return "not a Sleep";
          case "name-not-displayable": return "no name to show";
          case "agent-unavailable": return "no agent";
          case "token-not-issued": return "no token";
          case "session-changed": return "signed out meanwhile";
        }
      }
      function conflict(error: BridgeError): string | undefined {
        if (error.code !== BridgeErrorCode.PLATFORM_REFUSED) return undefined;
        const data = error.data as ScopeConflictData;
        return data.code === "scope_conflict" ? String(data.canonicalTimer.id) + words(data.native.reason) : undefined;
      }
      console.info(conflict(new BridgeError(-32001, "conflict")));
    `);
    assert.equal(code, 0, output);
  });

  it("refuses a reason the bridge never gives", { timeout: 180_000 }, async () => {
    const { code, output } = await typecheck(`
      import type { NativeReason } from "CLIENT";
      const reason: NativeReason = "expired";
      console.info(reason);
    `);
    assert.notEqual(code, 0);
    assert.match(output, /"expired"/);
  });
});
