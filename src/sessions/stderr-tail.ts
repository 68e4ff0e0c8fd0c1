import type { Readable } from "node:stream";
import { setTimeout as delay } from "node:timers/promises";

/**
 * Keeps the last lines a server wrote to stderr, bounded in lines and bytes, so that a dead
 * session can say why it died without the bridge holding megabytes of server chatter.
 */
export class StderrTail {
  private readonly lines: string[] = [];
  private partial = "";
  private endSeen: () => void = () => {};
  private readonly ended = new Promise<void>((resolve) => (this.endSeen = resolve));

  constructor(
    private readonly maxLines = 20,
    private readonly maxLineChars = 240,
  ) {}

  /** Reads `stream` until it ends; the stream is always drained so the server never blocks on it. */
  follow(stream: Readable): void {
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => this.append(chunk));
    stream.on("end", () => this.flush());
    stream.on("error", () => this.flush());
    stream.on("close", () => this.flush());
  }

  /**
   * Resolves once the followed stream has ended (its writers are gone), or after `ms`: a server's
   * exit can be seen before its last lines have been read.
   */
  async drained(ms: number): Promise<void> {
    await Promise.race([this.ended, delay(ms, undefined, { ref: false })]);
  }

  append(chunk: string): void {
    const parts = (this.partial + chunk).split(/\r?\n/);
    this.partial = (parts.pop() ?? "").slice(-this.maxLineChars);
    for (const line of parts) this.push(line);
  }

  /** The tail, oldest line first. */
  snapshot(): string[] {
    return this.partial ? [...this.lines, this.partial].slice(-this.maxLines) : [...this.lines];
  }

  private flush(): void {
    if (this.partial) this.push(this.partial);
    this.partial = "";
    this.endSeen();
  }

  private push(line: string): void {
    if (line.length === 0) return;
    this.lines.push(line.length > this.maxLineChars ? line.slice(0, this.maxLineChars) + "…" : line);
    if (this.lines.length > this.maxLines) this.lines.shift();
  }
}
