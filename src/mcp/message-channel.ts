import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

/**
 * Where `serve` talks to its agent: stdio's line transport, the revision gate in front of it, or
 * the HTTP front. A transport that can also pass on a message another process serialised.
 */
export interface MessageChannel extends Transport {
  /** Writes one message already serialised as JSON (one line, no terminator), as `send` would. */
  sendSerialized(json: string): Promise<void>;
}
