import type { ServerCapabilities } from "vscode-languageserver-protocol";
import { BridgeError } from "../../contract/errors.js";
import type { LspClient } from "../lsp-client.js";

/**
 * Whether the server offers a feature: announced in its `initialize` result, or registered at run
 * time (`client/registerCapability` for `method`). Decided from what the server said, never by
 * trying a request and waiting.
 */
export function hasCapability(client: LspClient, capability: keyof ServerCapabilities, method: string): boolean {
  return Boolean(client.capabilities[capability]) || client.registrations.has(method);
}

/** Throws `NotSupported` (details: `capability`, `method`) when the server does not offer the feature. */
export function requireCapability(client: LspClient, capability: keyof ServerCapabilities, method: string): void {
  if (hasCapability(client, capability, method)) return;
  throw notSupported(capability, method);
}

/** The `NotSupported` error of a missing capability, also for a server that announced it but answers MethodNotFound. */
export function notSupported(capability: string, method: string): BridgeError {
  return new BridgeError("NotSupported", `the server does not provide ${method} (no ${capability})`, { capability, method });
}

/**
 * Runs a request the server announced; a MethodNotFound answer (clangd announces call hierarchy
 * but has no outgoing calls) is `NotSupported` with the capability named, like an absent one.
 */
export async function withCapability<T>(capability: string, method: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof BridgeError && error.code === "NotSupported") {
      throw new BridgeError("NotSupported", `the server announces ${capability} but does not implement ${method}`, { capability, method });
    }
    throw error;
  }
}
