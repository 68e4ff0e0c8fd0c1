import type { Writable } from "node:stream";
import { AbstractMessageWriter, type Message, type MessageWriter } from "vscode-jsonrpc/node";

/**
 * Writes each LSP message as one `Content-Length` frame in a single write. vscode-jsonrpc's own
 * stream writer writes the header, waits for it to be flushed, then writes the body: two system
 * calls and a wait per message, each waking the server's process, which a bridge serving many
 * calls pays for on every request and notification. Order is the stream's write order.
 */
export class FramedMessageWriter extends AbstractMessageWriter implements MessageWriter {
  readonly #output: Writable;
  #errors = 0;

  constructor(output: Writable) {
    super();
    this.#output = output;
    output.on("error", (error) => this.fireError(error));
    output.on("close", () => this.fireClose());
  }

  write(message: Message): Promise<void> {
    const body = Buffer.from(JSON.stringify(message), "utf8");
    const frame = Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, "ascii"), body]);
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
