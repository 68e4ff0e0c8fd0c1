/** Where a progress line can be drawn: a terminal stream. */
interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): boolean;
}

/**
 * One self-overwriting line on a terminal ("check: 120/500 files · app/typescript"). Off a
 * terminal it draws nothing, so logs and CI output get only the report and real messages.
 */
export class ProgressLine {
  private drawn = false;

  constructor(
    private readonly stream: ProgressStream,
    private readonly enabled: boolean,
  ) {}

  update(done: number, total: number, session: string): void {
    if (!this.enabled || !this.stream.isTTY) return;
    // Carriage return and erase-line redraw in place without scrolling.
    this.stream.write(`\r\x1b[2Kcheck: ${done}/${total} files · ${session}`);
    this.drawn = true;
  }

  /** Erases the line, so the next message starts on a clean line. */
  clear(): void {
    if (!this.drawn) return;
    this.stream.write("\r\x1b[2K");
    this.drawn = false;
  }
}
