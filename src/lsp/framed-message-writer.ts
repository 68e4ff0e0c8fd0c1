import type { Writable } from "node:stream";
import { AbstractMessageWriter, type Message, type MessageWriter } from "vscode-jsonrpc/node";

/**
 * Writes each LSP message as one `Content-Length` frame in a single write. vscode-jsonrpc's own
 * stream writer writes the header, waits for it to be flushed, then writes the body: two system
 * calls and a wait per message, each waking the server's process, which a bridge serving many
 * calls pays for on every request and notification. Order is the stream's write order.
 *
 * Messages written in the same turn of the event loop leave in one system call: the stream is
 * corked at the first and uncorked once the turn's callbacks have run (a many-file run sends its
 * requests in bursts: a `writev` of a burst cost a fraction of one write per message).
 */
export class FramedMessageWriter extends AbstractMessageWriter implements MessageWriter {
  readonly #output: Writable;
  #errors = 0;
  #corked = false;

  constructor(output: Writable) {
    super();
    this.#output = output;
    output.on("error", (error) => this.fireError(error));
    output.on("close", () => this.fireClose());
  }

  write(message: Message): Promise<void> {
    const body = Buffer.from(JSON.stringify(message), "utf8");
    const frame = Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, "ascii"), body]);
    if (!this.#corked) {
      this.#corked = true;
      this.#output.cork();
      setImmediate(() => {
        this.#corked = false;
        this.#output.uncork();
      });
    }
    return new Promise((resolve, reject) => {
      this.#output.write(frame, (error) => {
        if (!error) return resolve();
        this.fireError(error, message, ++this.#errors);
        reject(error);
      });
    });
  }

  end(): void {
    this.#output.end();
  }
}
