import type { Deadline } from "../../contract/deadline.js";
import type { LspClient, RequestOptions } from "../lsp-client.js";
import type { SettleEvent, SettleStrategy } from "../settle-rule.js";

/**
 * What an adapter may use of its connection: the client's own requests (with their deadlines,
 * cancellation and errors), notifications, and what the server says. Nothing else of the client.
 */
export type ServerLink = Pick<LspClient, "request" | "notify" | "events" | "onLog" | "onPublish" | "onClose" | "closedError" | "isClosed">;

/** A settle decision that an adapter carries out on its server (the rule's other one is a pull). */
export type SettleAction = "barrier" | "flycheck";

/**
 * Everything about one language server that the LSP spec does not say, in one place: the client,
 * the sessions and the pipeline ask this and never which server they talk to. A server that needs
 * nothing beyond the spec gets the standard adapter; a profile picks another with `adapter = "…"`.
 * One is made per connection ({@link AdapterFactory}), before `initialize`, so it may keep what
 * it hears of its server.
 */
export interface ServerAdapter {
  /** The profile's `adapter` value that picks it. */
  readonly name: string;
  /** The strategy the settle rule (`settle-rule.ts`) runs for this server's diagnostics. */
  readonly settle: SettleStrategy;
  /** Work-done progress tokens that bear neither on diagnostics nor on loading: never tracked. */
  readonly ignoredProgress: ReadonlySet<string>;
  /**
   * Who tells the server of changes on disk: "server" (its own watchers) or "bridge". Every
   * adapter here says "server"; the bridge's watching is still the profile's `watch_files`.
   */
  readonly filesWatchedBy: "server" | "bridge";
  /**
   * Whether the server answers a whole project's diagnostics at once, without each file being
   * opened; false for every adapter here (tsserver's project path is found by its capabilities).
   */
  readonly answersManyFiles: boolean;
  /** The `initializationOptions` sent: the profile's, with what the server needs to be correct merged over them. */
  initializationOptions(configured: Readonly<Record<string, unknown>>): Record<string, unknown>;
  /**
   * Resolves once the server, after `initialized`, takes documents; the close of the connection
   * or the deadline fails it.
   */
  whenReady(deadline: Deadline): Promise<void>;
  /** What the adapter knows of `uri` when a settle wait starts, told to the rule as events. */
  startingEvents(uri: string): SettleEvent[];
  /**
   * Carries out `action` for a settle wait. Resolves to the event that tells the rule it is done,
   * or null when the rule hears of it through the connection's events.
   */
  perform(action: SettleAction, options: RequestOptions): Promise<SettleEvent | null>;
}

/** Makes a server's adapter for one connection. */
export type AdapterFactory = (link: ServerLink) => ServerAdapter;
