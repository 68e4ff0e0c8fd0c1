import { parseArgs } from "node:util";
import { DEFAULT_PARITY_KEY, PARITY_FORMATS, PARITY_KEY_FIELDS, type ParityFormat, type ParityKeyField } from "./parity-findings.js";
import { BridgeError, errorText } from "../contract/errors.js";
import { SEVERITY_NAMES, type SeverityName } from "../contract/names.js";

/** `lspmcp parity`: one server of a config, run through lspmcp and compared with its own CLI. */
export interface ParityCommand {
  readonly kind: "parity";
  readonly config: string | null;
  readonly trustConfig: boolean;
  /** The server compared; null when the config has only one. */
  readonly server: string | null;
  /** The CLI's command line, run by `/bin/sh -c` in the workspace root. */
  readonly cli: string;
  readonly format: ParityFormat;
  readonly runs: number;
  /** The file each run edits (a line added at its end, then restored), or null for cold runs only. */
  readonly edit: string | null;
  /** The fields compared besides file and line. */
  readonly key: readonly ParityKeyField[];
  /** Findings below this severity are left out on both sides. */
  readonly minSeverity: SeverityName;
  readonly paths: string[];
}

export const PARITY_USAGE = `  lspmcp parity [--config FILE] [--trust-config] [--server NAME] --cli "COMMAND" --format sarif|json
                [--runs N] [--edit FILE] [--key FIELD,...] [--min-severity error|warning|information|hint] [PATH...]
                                      run one server through lspmcp on PATH (default: its whole
                                      workspace) and compare its findings with its own CLI's
                                      (COMMAND, run by /bin/sh in the workspace root, printing
                                      SARIF or {"findings":[{path,line,column?,severity,code?,message}]}),
                                      cold and, with --edit, after FILE gains a line at its end,
                                      N times (default 3); every finding the bridge dropped or
                                      added is printed. --key: what must be equal besides file
                                      and line (default severity,code,message; column may be added)
`;

/** `parity` ARGS → the command; bad usage is `InvalidArguments` (exit 2). */
export function parseParity(argv: readonly string[]): ParityCommand | { readonly kind: "help" } {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw usage(errorText(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: "help" };
  if (values.cli === undefined || values.cli.trim() === "") throw usage('parity needs --cli "COMMAND": the server\'s own command-line tool');
  if (values.format === undefined) throw usage("parity needs --format sarif|json: what the CLI prints");
  const format = oneOf(values.format, PARITY_FORMATS, "--format");
  const runs = values.runs === undefined ? 3 : Number(values.runs);
  if (!/^[0-9]+$/.test(values.runs ?? "3") || runs < 1 || runs > 1000) throw usage(`--runs must be a whole number from 1 to 1000 (got "${values.runs}")`);
  if (values.config === "") throw usage("--config needs a file name");
  if (values.edit === "") throw usage("--edit needs a file name");
  if (values.server === "") throw usage("--server needs a server name");
  const key = values.key === undefined ? DEFAULT_PARITY_KEY : values.key.split(",").map((field) => oneOf(field.trim(), PARITY_KEY_FIELDS, "--key"));
  return {
    kind: "parity",
    config: values.config ?? null,
    trustConfig: values["trust-config"] ?? false,
    server: values.server ?? null,
    cli: values.cli,
    format,
    runs,
    edit: values.edit ?? null,
    key: [...new Set(key)],
    minSeverity: oneOf(values["min-severity"] ?? "hint", SEVERITY_NAMES, "--min-severity"),
    paths: positionals,
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      config: { type: "string", short: "c" },
      "trust-config": { type: "boolean" },
      server: { type: "string" },
      cli: { type: "string" },
      format: { type: "string" },
      runs: { type: "string" },
      edit: { type: "string" },
      key: { type: "string" },
      "min-severity": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw usage(`${flag} must be one of ${allowed.join(", ")} (got "${value}")`);
}

function usage(message: string): BridgeError {
  return new BridgeError("InvalidArguments", message, {});
}
