import { InitializedNotification } from "vscode-languageserver-protocol";
import type { Deadline } from "../../contract/deadline.js";
import { standardAdapter } from "./standard.js";
import type { ServerAdapter, ServerLink } from "./server-adapter.js";

/**
 * The `window/logMessage` by which Biome says its start-up work is done: it loads its
 * configuration (and scans the project) in its `initialized` handler, then logs this and
 * republishes every open file. A file opened before then is checked for syntax only, and its
 * empty publish could come before the scan's progress began (seen under load).
 */
export const BIOME_READY_LOG = "Server initialized with PID";

/**
 * Biome: no document is sent before {@link BIOME_READY_LOG}, and it publishes an empty list while
 * it scans the project, then the real one, so only a publish (or pull answer) made with no
 * work-done progress running settles (the "after-progress" strategy).
 */
export function biomeAdapter(link: ServerLink): ServerAdapter {
  let wake: () => void = () => {};
  const ready = new Promise<void>((resolve) => (wake = resolve));
  // Listening from the connection on, so that a message sent right after `initialized` is heard.
  const stopListening = link.onLog((line) => {
    if (!line.includes(BIOME_READY_LOG)) return;
    stopListening();
    wake();
  });
  return {
    ...standardAdapter(),
    name: "biome",
    settle: "after-progress",
    whenReady: (deadline) => readyOrClosed(link, ready, deadline),
  };
}

/** Waits for `ready`; a close or the deadline fails the wait, and it leaves no listener behind. */
async function readyOrClosed(link: ServerLink, ready: Promise<void>, deadline: Deadline): Promise<void> {
  const method = InitializedNotification.method;
  if (link.isClosed) throw link.closedError(method);
  let stop: () => void = () => {};
  const closed = new Promise<never>((_, reject) => {
    stop = link.onClose(() => reject(link.closedError(method)));
  });
  try {
    await deadline.race(Promise.race([ready, closed]), `the server's start-up message "${BIOME_READY_LOG}"`);
  } finally {
    stop();
  }
}
