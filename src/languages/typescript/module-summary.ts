/**
 * What a change of a file can reach, read from its text: the lines that export (and the names on
 * them), and whether the file can reach files that do not import it at all.
 */
export interface ModuleSummary {
  /**
   * The export statements that declare nothing, trimmed, in order: re-exports, export lists (over
   * several lines too), `export default` and `export =`. What a declaration exports is its
   * hover's; a body on the same line as its `export` is not part of this.
   */
  readonly exportStatements: readonly string[];
  /** Every identifier on those lines: a superset of the names the module exports. */
  readonly exportedNames: ReadonlySet<string>;
  /**
   * A change of it can reach any file: a script (no import or export: its declarations are
   * global), or a module that augments the global scope or another module.
   */
  readonly global: boolean;
}

const EXPORT_LINE = /\bexport\b/;
const EXPORTED_DECLARATION = /^\s*export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function|class|const|let|var|interface|type|enum|namespace|module)\b/;
const MODULE_SYNTAX = /^\s*(?:import|export)\b/m;
const AUGMENTATION = /\bdeclare\s+(?:global\b|module\s+["'])/;
const IDENTIFIER = /[\p{L}_$][\p{L}\p{N}_$]*/gu;

/** Reads `text` as {@link ModuleSummary} says. Over-inclusive by design: a name too many only costs a hover. */
export function summarizeModule(text: string): ModuleSummary {
  const exportLines: string[] = [];
  const exportStatements: string[] = [];
  // An export list may span lines (`export {\n a,\n b,\n}`): its lines are kept until it closes.
  let open = 0;
  let statement = false;
  for (const line of text.split(/\r?\n/)) {
    if (open === 0) {
      if (!EXPORT_LINE.test(line)) continue;
      statement = !EXPORTED_DECLARATION.test(line);
    }
    exportLines.push(line.trim());
    if (statement) exportStatements.push(line.trim());
    open = Math.max(0, open + count(line, "{") - count(line, "}"));
  }
  const exportedNames = new Set(exportLines.flatMap((line) => line.match(IDENTIFIER) ?? []));
  return { exportStatements, exportedNames, global: !MODULE_SYNTAX.test(text) || AUGMENTATION.test(text) };
}

function count(line: string, char: string): number {
  return line.split(char).length - 1;
}
