import { InitializedNotification } from "vscode-languageserver-protocol";
import type { Deadline } from "../contract/deadline.js";
import type { ServerLink } from "../lsp/server-adapter.js";

/**
 * A server's `whenReady` for one that says in a log line that it takes documents (Biome, bacon-ls):
 * listening from the connection on, so that a line sent right after `initialized` is heard. The
 * wait fails when the connection closes first or the deadline passes, and leaves no listener.
 */
export function whenLogged(link: ServerLink, line: string): (deadline: Deadline) => Promise<void> {
  return whenHeard(link, (heard) => link.onLog((logged) => logged.includes(line) && heard()), `the server's start-up message "${line}"`);
}

/**
 * A server's `whenReady` for one that takes documents only once the client has answered its
 * request `method` (bash-language-server: its `workspace/configuration`), as {@link whenLogged}.
 */
export function whenAnswered(link: ServerLink, method: string): (deadline: Deadline) => Promise<void> {
  return whenHeard(link, (heard) => link.onAnswered((answered) => answered === method && heard()), `the answer to the server's ${method}`);
}

/** Listens from now on through `listen` (which returns its own stop), and waits for what it hears. */
function whenHeard(link: ServerLink, listen: (heard: () => void) => () => void, what: string): (deadline: Deadline) => Promise<void> {
  let wake: () => void = () => {};
  const ready = new Promise<void>((resolve) => (wake = resolve));
  const stopListening = listen(() => {
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
      await deadline.race(Promise.race([ready, closed]), what);
    } finally {
      stop();
    }
  };
}
