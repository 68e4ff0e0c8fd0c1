import { readFile } from "node:fs/promises";
import { parse, TomlError } from "smol-toml";
import type { ConfigProblem } from "./problems.js";

/** A parsed TOML document, or the one problem that stopped it (unreadable file, syntax error). */
type TomlResult = { ok: true; value: Record<string, unknown>; text: string } | { ok: false; problem: ConfigProblem };

/**
 * Reads and parses a TOML file, keeping the text that was parsed (what trust is judged on). Never throws: a missing file or a syntax error comes back as a
 * problem at path "" whose message names the file and, for syntax errors, the line and column.
 */
export async function readToml(file: string): Promise<TomlResult> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    return { ok: false, problem: { path: "", message: `cannot read ${file}: ${reason}` } };
  }
  try {
    return { ok: true, value: parse(text), text };
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    // smol-toml's message ends with a code excerpt; the first line is the reason.
    const reason = error.message.split("\n")[0]?.replace(/^Invalid TOML document: /, "") ?? "invalid TOML";
    return {
      ok: false,
      problem: {
        path: "",
        message: `${file}:${error.line}:${error.column}: TOML syntax error: ${reason}`,
        line: error.line,
        column: error.column,
      },
    };
  }
}
