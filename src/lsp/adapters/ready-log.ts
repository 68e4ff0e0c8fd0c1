import { InitializedNotification } from "vscode-languageserver-protocol";
import type { Deadline } from "../../contract/deadline.js";
import type { ServerLink } from "./server-adapter.js";

/**
 * A server's `whenReady` for one that says in a log line that it takes documents (Biome, bacon-ls):
 * listening from the connection on, so that a line sent right after `initialized` is heard. The
 * wait fails when the connection closes first or the deadline passes, and leaves no listener.
 */
export function whenLogged(link: ServerLink, line: string): (deadline: Deadline) => Promise<void> {
  let wake: () => void = () => {};
  const ready = new Promise<void>((resolve) => (wake = resolve));
  const stopListening = link.onLog((logged) => {
    if (!logged.includes(line)) return;
    stopListening();
    wake();
  });
  return async (deadline) => {
    const method = InitializedNotification.method;
    if (link.isClosed) throw link.closedError(method);
    let stop: () => void = () => {};
    const closed = new Promise<never>((_, reject) => {
      stop = link.onClose(() => reject(link.closedError(method)));
    });
    try {
      await deadline.race(Promise.race([ready, closed]), `the server's start-up message "${line}"`);
    } finally {
      stop();
    }
  };
}
