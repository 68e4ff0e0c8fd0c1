/** What an install says while it works; the CLI renders it for a terminal or for a pipe. */
export interface InstallProgress {
  /** A step begins (`ownProgress`: the step draws its own progress, as cargo does). */
  step(server: string, label: string, ownProgress: boolean): void;
  /** A line to keep: a wait, a result, a failure. */
  line(text: string): void;
  /** Stops any ticking; nothing is drawn after. */
  close(): void;
}

/** How often the elapsed time of a running step is redrawn on a terminal. */
const TICK_MS = 1000;

/**
 * How often a pipe hears that a step still runs: a CI log that stays silent for the 25 minutes of
 * rust-analyzer's build reads as hung (and some CI services end a job silent for 10).
 */
const PIPED_TICK_MS = 60_000;

/**
 * Progress on `stream`: on a terminal one line per running step, redrawn with its elapsed time
 * (`gopls: go install golang.org/x/tools/gopls@v0.23.0 0:42`); on a pipe or file plain lines,
 * one when each step begins and one a minute while it runs, so a CI log reads in order.
 */
export function streamProgress(stream: NodeJS.WritableStream & { isTTY?: boolean }): InstallProgress {
  const tty = stream.isTTY === true;
  let timer: NodeJS.Timeout | undefined;
  let current: string | null = null;
  const clear = (): void => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
    if (current !== null && tty) stream.write("\r\x1b[K");
    current = null;
  };
  const tick = (every: number, draw: () => void): void => {
    timer = setInterval(draw, every);
    timer.unref();
  };
  return {
    step(server, label, ownProgress) {
      clear();
      const text = `${server}: ${label}`;
      const started = Date.now();
      if (!tty || ownProgress) {
        stream.write(`${text}\n`);
        if (!tty) tick(PIPED_TICK_MS, () => void stream.write(`${text}: still running, ${elapsed(Date.now() - started)}\n`));
        return;
      }
      current = text;
      const draw = (): void => void stream.write(`\r\x1b[K${text} ${elapsed(Date.now() - started)}`);
      draw();
      tick(TICK_MS, draw);
    },
    line(text) {
      clear();
      stream.write(`${text}\n`);
    },
    close: clear,
  };
}

/** m:ss */
export function elapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}
