// The real environment for the client's integration tests: the reference
// platform over TLS, a private session bus with dfl-sleep-agent (all started
// by Tests/Integration/bridge_environment.py), and dfl-webview-bridge spoken
// to over its stdin and stdout, as the desktop wrapper does.

import { execFile, spawn } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * How long to wait for something that should happen at once: a bound for a
 * hung process, not a performance assertion.
 */
export const PATIENCE_MS = 30_000;

const AGENT = {
  name: "com.dreamsforlittles.DreamsForLittles.SleepTimers1",
  path: "/com/dreamsforlittles/SleepTimers1",
  interface: "com.dreamsforlittles.SleepTimers1",
};

/** Keeps the last `limit` characters a stream writes, for failure messages. */
function tail(stream, limit = 64 * 1024) {
  const kept = { text: "" };
  stream.setEncoding("utf8");
  stream.on("data", (chunk) => {
    kept.text = (kept.text + chunk).slice(-limit);
  });
  return kept;
}

/** Resolves with {code, signal} when the child exits, or null after `ms`. */
export function waitForExit(child, ms) {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off("exit", onExit);
      resolve(null);
    }, ms);
    function onExit(code, signal) {
      clearTimeout(timer);
      resolve({ code, signal });
    }
    child.once("exit", onExit);
  });
}

/**
 * The transport a wrapper gives the page, over a child's stdio: each text
 * is one line on its stdin, each line on its stdout one text.
 */
export function stdioTransport(child) {
  const listeners = new Set();
  const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
  lines.on("line", (line) => {
    for (const listener of [...listeners]) listener(line);
  });
  return {
    send(text) {
      child.stdin.write(text + "\n");
    },
    onMessage(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * Starts the environment script, then the bridge in its environment.
 * Resolves with {info, bridge, transport, received, bridgeLog, stopBridge, stop};
 * `received` holds every line the bridge wrote, in order.
 */
export async function startEnvironment() {
  const script = spawn("/usr/bin/python3", [path.join(REPO, "Tests", "Integration", "bridge_environment.py")], {
    cwd: REPO,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const scriptLog = tail(script.stderr);
  let info;
  try {
    info = await firstLine(script, 120_000, () => scriptLog.text);
  } catch (error) {
    await stopScript(script);
    throw error;
  }

  const bridge = spawn(info.bridge, [], { env: info.env, stdio: ["pipe", "pipe", "pipe"] });
  const bridgeLog = tail(bridge.stderr);
  // A write after the bridge went away must fail the test that made it,
  // not the whole run.
  bridge.stdin.on("error", () => {});
  const spawned = new Promise((resolve, reject) => {
    bridge.once("spawn", resolve);
    bridge.once("error", reject);
  });
  try {
    await spawned;
  } catch (error) {
    await stopScript(script);
    throw new Error(`dfl-webview-bridge could not be started from ${info.bridge} (build it with swift build): ${error.message}`);
  }
  const transport = stdioTransport(bridge);
  const received = [];
  transport.onMessage((text) => received.push(text));

  async function stopBridge() {
    bridge.stdin.end();
    let status = await waitForExit(bridge, PATIENCE_MS);
    if (status === null) {
      bridge.kill("SIGKILL");
      status = await waitForExit(bridge, PATIENCE_MS);
    }
    return status;
  }

  return {
    info,
    bridge,
    transport,
    received,
    bridgeLog: () => bridgeLog.text,
    stopBridge,
    async stop() {
      await stopBridge();
      await stopScript(script);
    },
  };
}

/** The script's JSON line, or an error with what it wrote on stderr. */
function firstLine(script, ms, log) {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: script.stdout, crlfDelay: Infinity });
    const timer = setTimeout(() => fail(`no JSON line within ${ms} ms`), ms);
    const onError = (error) => fail(error.message);
    const onExit = (code, signal) => fail(`exited (${code ?? signal}) before it was ready`);
    function settle() {
      clearTimeout(timer);
      script.off("error", onError);
      script.off("exit", onExit);
      lines.close();
    }
    function fail(why) {
      settle();
      reject(new Error(`bridge_environment.py: ${why}\n${log()}`));
    }
    script.on("error", onError);
    script.on("exit", onExit);
    lines.once("line", (line) => {
      settle();
      try {
        resolve(JSON.parse(line));
      } catch {
        reject(new Error(`bridge_environment.py printed something other than JSON\n${log()}`));
      }
    });
  });
}

/**
 * Closes the script's stdin, on which it stops everything it started; then
 * SIGINT (it still cleans up on KeyboardInterrupt), and SIGKILL last.
 */
async function stopScript(script) {
  script.stdin.on("error", () => {});
  script.stdin.end();
  for (const [signal, ms] of [[null, 60_000], ["SIGINT", PATIENCE_MS], ["SIGKILL", PATIENCE_MS]]) {
    if (signal) script.kill(signal);
    if ((await waitForExit(script, ms)) !== null) return;
  }
}

/** A JSON request to the platform's plain-HTTP control API on loopback. */
export function control(base, method, pathname) {
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(pathname, base), { method, agent: false }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => {
        body += chunk;
      });
      response.on("end", () => {
        if (response.statusCode !== 200) {
          reject(new Error(`${method} ${pathname}: ${response.statusCode} ${body}`));
          return;
        }
        try {
          resolve(JSON.parse(body));
        } catch (error) {
          reject(error);
        }
      });
    });
    request.setTimeout(PATIENCE_MS, () => request.destroy(new Error(`${method} ${pathname} timed out`)));
    request.on("error", reject);
    request.end();
  });
}

/**
 * Completes a timer on the desktop, as a person clicking Complete would:
 * the agent's Complete method on the private session bus. Resolves with
 * gdbus's output, e.g. "('queued',)".
 */
export function completeNatively(env, timerId) {
  return new Promise((resolve, reject) => {
    execFile(
      "gdbus",
      ["call", "--session", "--dest", AGENT.name, "--object-path", AGENT.path,
        "--method", `${AGENT.interface}.Complete`, timerId, "0"],
      { env, timeout: PATIENCE_MS },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`gdbus Complete failed: ${error.message} ${stderr}`));
        else resolve(stdout.trim());
      },
    );
  });
}

/** Polls `probe` until it returns something truthy; fails after PATIENCE_MS. */
export async function eventually(probe, what) {
  const deadline = Date.now() + PATIENCE_MS;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Resolves with the first call's argument; rejects after PATIENCE_MS. */
export function nextCall(subscribe, what) {
  return new Promise((resolve, reject) => {
    let unsubscribe = () => {};
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`gave up waiting for ${what}`));
    }, PATIENCE_MS);
    unsubscribe = subscribe((value) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(value);
    });
  });
}
