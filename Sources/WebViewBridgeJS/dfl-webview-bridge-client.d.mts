// TypeScript resolves a module imported as .mjs to a .d.mts beside it: this
// one forwards to the declarations in dfl-webview-bridge-client.d.ts.
export * from "./dfl-webview-bridge-client.js";
