import type { SeverityName } from "../contract/names.js";

/** `--fail-on`: the least severe finding that fails the run, or "never". */
export type FailOn = SeverityName | "never";
