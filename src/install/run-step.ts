import { ownArgv, spawnOwnCommand } from "../exec/own-command.js";
import { findSetpriv, withParentDeathSignal } from "../supervision/parent-death.js";
import type { InstallStep } from "../config/install-recipes.js";

/** Lines of a failed step's output kept to explain it. */
const TAIL_LINES = 25;

/** How a step ended: `tail` is the end of what it printed, for a failure's message. */
type StepResult = { readonly ok: true } | { readonly ok: false; readonly message: string; readonly tail: readonly string[] };

/**
 * Runs one install step to its end. It dies with this process (setpriv's parent-death signal),
 * and `signal` kills it, so an interrupted install leaves no build running into its folder.
 * With `inheritStderr` its own progress goes straight to the terminal. Never rejects.
 */
export function runStep(step: InstallStep, signal: AbortSignal, inheritStderr: boolean): Promise<StepResult> {
  const [command, ...args] = ownArgv(step.argv);
  const { file, argv } = withParentDeathSignal(findSetpriv(), command, args);
  const lines: string[] = [];
  // Chunks end anywhere: the part after the last newline waits for the rest of its line.
  let partial = "";
  const keep = (chunk: Buffer): void => {
    const parts = (partial + chunk.toString("utf8")).split("\n");
    partial = parts.pop() ?? "";
    lines.push(...parts.filter((line) => line.trim() !== ""));
    lines.splice(0, Math.max(0, lines.length - TAIL_LINES));
  };
  return new Promise((resolve) => {
    const child = spawnOwnCommand([file, ...argv], { env: { ...process.env, ...step.env }, stdio: ["ignore", "pipe", inheritStderr ? "inherit" : "pipe"] });
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    const abort = (): void => void child.kill("SIGKILL");
    signal.addEventListener("abort", abort, { once: true });
    child.once("error", (error) => {
      signal.removeEventListener("abort", abort);
      resolve({ ok: false, message: `${command} could not start: ${error.message}`, tail: lines });
    });
    child.once("close", (code, killed) => {
      signal.removeEventListener("abort", abort);
      if (partial.trim() !== "") lines.push(partial);
      if (code === 0) resolve({ ok: true });
      else resolve({ ok: false, message: signal.aborted ? "interrupted" : `${step.label} exited with ${code ?? killed}`, tail: lines });
    });
  });
}
