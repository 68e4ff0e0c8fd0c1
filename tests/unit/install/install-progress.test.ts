// Progress on a terminal redraws one line per running step with its elapsed time; piped, it is
// plain lines, one per step, with no carriage returns.
import { PassThrough } from "node:stream";
import { describe, expect, test, vi } from "vitest";
import { elapsed, streamProgress } from "../../../src/install/install-progress.js";

function capture(tty: boolean): { stream: PassThrough & { isTTY?: boolean }; text: () => string } {
  const stream: PassThrough & { isTTY?: boolean } = new PassThrough();
  if (tty) stream.isTTY = true;
  let text = "";
  stream.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  return { stream, text: () => text };
}

describe("install progress", () => {
  test("piped: one plain line per step, then the result", () => {
    const { stream, text } = capture(false);
    const progress = streamProgress(stream);
    progress.step("ruff", "python3 -m venv", false);
    progress.step("ruff", "pip install ruff==0.17.5", false);
    progress.line("ruff 0.17.5: installed");
    progress.close();
    expect(text()).toBe("ruff: python3 -m venv\nruff: pip install ruff==0.17.5\nruff 0.17.5: installed\n");
  });

  test("on a terminal: the running step is drawn with its elapsed time and cleared before the next line", () => {
    const { stream, text } = capture(true);
    const progress = streamProgress(stream);
    progress.step("gopls", "go install golang.org/x/tools/gopls@v0.23.0", false);
    progress.line("gopls v0.23.0: installed");
    progress.close();
    expect(text()).toBe("\r\x1b[Kgopls: go install golang.org/x/tools/gopls@v0.23.0 0:00\r\x1b[Kgopls v0.23.0: installed\n");
  });

  test("on a terminal, a step that draws its own progress (cargo's) gets a plain line", () => {
    const { stream, text } = capture(true);
    const progress = streamProgress(stream);
    progress.step("rust-analyzer", "cargo install", true);
    progress.close();
    expect(text()).toBe("rust-analyzer: cargo install\n");
  });

  test("piped: a step that runs long says so once a minute", () => {
    vi.useFakeTimers();
    try {
      const { stream, text } = capture(false);
      const progress = streamProgress(stream);
      progress.step("rust-analyzer", "cargo install", true);
      vi.advanceTimersByTime(125_000);
      progress.line("rust-analyzer 0.0.348: installed");
      vi.advanceTimersByTime(120_000);
      progress.close();
      expect(text()).toBe(
        "rust-analyzer: cargo install\nrust-analyzer: cargo install: still running, 1:00\nrust-analyzer: cargo install: still running, 2:00\nrust-analyzer 0.0.348: installed\n",
      );
    } finally {
      vi.useRealTimers();
    }
  });

  test("elapsed is m:ss", () => {
    expect([elapsed(0), elapsed(59_999), elapsed(61_000), elapsed(25 * 60_000)]).toEqual(["0:00", "0:59", "1:01", "25:00"]);
  });
});
