import { execFileSync } from "node:child_process";

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
