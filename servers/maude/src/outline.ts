/**
 * Module-level structure of a Maude file, found by tokens alone: modules and views with their
 * sorts, subsorts, operators, variables and labelled statements, plus top-level `load`/`in`
 * directives. Built from tokens, not by a Maude parser; it knows nothing about LSP and never
 * throws.
 */
import { lexMaude, type LexResult, type TextRange, type Token } from "./lexer.js";
import { statementSymbols, type MaudeSymbol } from "./statement-symbols.js";

export type { MaudeSymbol, MaudeSymbolKind } from "./statement-symbols.js";

/** A top-level `load`, `sload` or `in` command; `path` is the rest of its line, trimmed. */
interface LoadDirective {
  readonly command: string;
  readonly path: string;
  /** Zero-based line of the directive. */
  readonly line: number;
  /** UTF-16 offsets of `path` in the text. */
  readonly pathStart: number;
  readonly pathEnd: number;
}

/** A structural problem the outline noticed (unclosed module, stray end keyword, ...). */
interface OutlineError {
  readonly message: string;
  readonly range: TextRange;
}

/** Everything the outline found; `errors` is empty for well-formed module structure. */
interface MaudeOutline {
  readonly symbols: MaudeSymbol[];
  readonly loads: LoadDirective[];
  readonly errors: OutlineError[];
}

/** Module keyword → its end keyword. `view` gets the same treatment with no children. */
const MODULE_END: Readonly<Record<string, string>> = {
  fmod: "endfm",
  mod: "endm",
  fth: "endfth",
  th: "endth",
  smod: "endsm",
  sth: "endsth",
  omod: "endom",
  oth: "endoth",
  view: "endv",
};
const END_KEYWORDS = new Set(Object.values(MODULE_END));
const LOAD_COMMANDS = new Set(["load", "sload", "in"]);
// Maude stops reading a file at these top-level commands.
const STOP_COMMANDS = new Set(["eof", "quit", "q"]);

/** Outlines `text`: symbols, load directives and errors. Total over all strings. */
export function outlineMaude(text: string): MaudeOutline {
  try {
    return new Walker(lexMaude(text)).run();
  } catch (err) {
    // Defence in depth: the walker is written not to throw, but a bug must not take down a request.
    const zero = { line: 0, character: 0 };
    return { symbols: [], loads: [], errors: [{ message: `tokenizer failure: ${String(err)}`, range: { start: zero, end: zero } }] };
  }
}

class Walker {
  private readonly symbols: MaudeSymbol[] = [];
  private readonly loads: LoadDirective[] = [];
  private readonly errors: OutlineError[] = [];
  private i = 0;

  constructor(private readonly lex: LexResult) {
    for (const e of lex.errors) this.error(e.message, e.start, e.end);
  }

  run(): MaudeOutline {
    const toks = this.lex.tokens;
    while (this.i < toks.length) {
      const tok = toks[this.i] as Token;
      if (MODULE_END[tok.text] !== undefined) this.module(tok);
      else if (LOAD_COMMANDS.has(tok.text)) this.load(tok);
      else if (STOP_COMMANDS.has(tok.text)) break;
      else if (END_KEYWORDS.has(tok.text)) {
        this.error(`${tok.text} outside of a module`, tok.start, tok.end);
        this.i++;
      } else this.skipCommand();
    }
    return { symbols: this.symbols, loads: this.loads, errors: this.errors };
  }

  private range(start: number, end: number): TextRange {
    return { start: this.lex.document.positionAt(start), end: this.lex.document.positionAt(end) };
  }

  private error(message: string, start: number, end: number): void {
    this.errors.push({ message, range: this.range(start, end) });
  }

  // The file name runs to the end of the line; tokens on the rest of that line are consumed.
  private load(tok: Token): void {
    const text = this.lex.document.getText();
    const nl = text.indexOf("\n", tok.end);
    const lineEnd = nl < 0 ? text.length : nl;
    const raw = text.slice(tok.end, lineEnd);
    const lead = raw.length - raw.trimStart().length;
    const path = raw.trim();
    if (path !== "") {
      const pathStart = tok.end + lead;
      this.loads.push({ command: tok.text, path, line: tok.line, pathStart, pathEnd: pathStart + path.length });
    }
    while (this.i < this.lex.tokens.length && (this.lex.tokens[this.i] as Token).start < lineEnd) this.i++;
  }

  // A top-level command ends at its period; a module keyword opening a line starts a module.
  private skipCommand(): void {
    const toks = this.lex.tokens;
    const first = toks[this.i] as Token;
    this.i++;
    if (first.text === ".") return;
    while (this.i < toks.length) {
      const t = toks[this.i] as Token;
      if (t.text === ".") {
        this.i++;
        return;
      }
      if (t.line !== first.line && MODULE_END[t.text] !== undefined && this.startsLine(t)) return;
      this.i++;
    }
  }

  // Source text of a token run with whitespace collapsed, e.g. "{X :: TRIV}".
  private raw(run: Token[]): string {
    const first = run[0] as Token;
    const last = run.at(-1) as Token;
    return this.lex.document.getText().slice(first.start, last.end).replace(/\s+/g, " ");
  }

  private startsLine(t: Token): boolean {
    const prev = this.lex.tokens[this.i - 1];
    return prev === undefined || prev.line < t.line;
  }

  private module(head: Token): void {
    const toks = this.lex.tokens;
    const expectedEnd = MODULE_END[head.text] as string;
    this.i++;
    const nameTok = toks[this.i];
    if (nameTok === undefined || nameTok.text === "is" || SPECIAL_NAME.has(nameTok.text)) {
      this.error(`${head.text} without a module name`, head.start, head.end);
      return;
    }
    this.i++;
    // The header runs to `is`; parameters (`{X :: TRIV}`) and `from A to B` go into detail.
    const headerStart = this.i;
    while (this.i < toks.length && (toks[this.i] as Token).text !== "is") {
      const t = toks[this.i] as Token;
      if (END_KEYWORDS.has(t.text) || t.text === ".") break;
      this.i++;
    }
    const headerToks = toks.slice(headerStart, this.i);
    const header = headerToks.length === 0 ? [] : [this.raw(headerToks)];
    if ((toks[this.i] as Token | undefined)?.text === "is") this.i++;
    else this.error(`missing 'is' after ${head.text} ${nameTok.text}`, nameTok.start, nameTok.end);
    const body: Token[][] = [];
    let current: Token[] = [];
    let endTok: Token | undefined;
    let depth = 0;
    while (this.i < toks.length) {
      const t = toks[this.i] as Token;
      // Meta-level terms mention end keywords (`getSorts(fmod H is ... endfm)`): inside parentheses
      // an end keyword is just a token, and so is another module's mid-statement. This module's
      // own at the start of a line still closes it, so an unbalanced parenthesis cannot swallow
      // the modules after it.
      const closes =
        END_KEYWORDS.has(t.text) && ((depth === 0 && (current.length === 0 || t.text === expectedEnd)) || (t.text === expectedEnd && this.startsLine(t)));
      if (closes) {
        endTok = t;
        this.i++;
        break;
      }
      if (t.text === "(") depth++;
      else if (t.text === ")" && depth > 0) depth--;
      // A module header at the start of a statement means the previous module was never closed.
      if (current.length === 0 && MODULE_END[t.text] !== undefined && t.text !== "view") break;
      current.push(t);
      this.i++;
      if (t.text === "." && depth === 0) {
        body.push(current);
        current = [];
      }
    }
    if (current.length > 0) body.push(current);
    const last = endTok ?? body.at(-1)?.at(-1) ?? nameTok;
    if (endTok === undefined) this.error(`${head.text} ${nameTok.text} is not closed by ${expectedEnd}`, head.start, nameTok.end);
    else if (endTok.text !== expectedEnd)
      this.error(`${head.text} ${nameTok.text} closed by ${endTok.text}, expected ${expectedEnd}`, endTok.start, endTok.end);
    const children = head.text === "view" ? [] : body.flatMap((stmt) => statementSymbols(stmt, (s, e) => this.range(s, e)));
    this.symbols.push({
      name: nameTok.text,
      kind: head.text === "view" ? "view" : "module",
      detail: [head.text, ...header].join(" "),
      range: this.range(head.start, last.end),
      selectionRange: this.range(nameTok.start, nameTok.end),
      children,
    });
  }
}

const SPECIAL_NAME = new Set(["(", ")", "[", "]", "{", "}", ",", "."]);
