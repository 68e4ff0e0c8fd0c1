import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { BRIDGE_MAIN } from "./paths.js";

/**
 * Fails loudly when a binary a test needs is missing: CI installs it, so its absence is a
 * broken setup, not a reason to skip.
 */
export function requireBinary(name: string): void {
  try {
    execFileSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" });
  } catch {
    throw new Error(`${name} is not installed; run scripts/setup.sh (npm test does) — CI installs it with apt-get`);
  }
}

/** Fails loudly when the bridge is not built: a gate that skipped itself would prove nothing. */
export function requireBuild(): void {
  if (!existsSync(BRIDGE_MAIN)) throw new Error(`the bridge is not built (${BRIDGE_MAIN}): run \`npm run build\` (npm test does)`);
}
