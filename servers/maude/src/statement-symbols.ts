/**
 * Symbols declared by one statement inside a module body (the tokens from its keyword up to and
 * including its period). Pure and total: an unrecognised or malformed statement yields nothing.
 */
import type { TextRange, Token } from "./lexer.js";

export type MaudeSymbolKind = "module" | "view" | "sort" | "subsort" | "operator" | "variable" | "equation" | "membership" | "rule" | "strategy";

/** A declaration found in the text; ranges are zero-based UTF-16 positions. */
export interface MaudeSymbol {
  readonly name: string;
  readonly kind: MaudeSymbolKind;
  /** Keyword and signature, e.g. `op` `Nat Nat -> Nat`, or `fmod` for a module. */
  readonly detail: string;
  readonly range: TextRange;
  readonly selectionRange: TextRange;
  readonly children: MaudeSymbol[];
}

type ToRange = (start: number, end: number) => TextRange;

const STATEMENT_KIND: Readonly<Record<string, MaudeSymbolKind>> = {
  eq: "equation",
  ceq: "equation",
  mb: "membership",
  cmb: "membership",
  rl: "rule",
  crl: "rule",
  sd: "strategy",
  csd: "strategy",
};

/** The symbols one statement declares (several for `sorts` / `ops` / `vars`). */
export function statementSymbols(stmt: readonly Token[], toRange: ToRange): MaudeSymbol[] {
  const head = stmt[0];
  if (head === undefined) return [];
  const last = stmt.at(-1) as Token;
  const body = stmt.slice(1, last.text === "." ? -1 : undefined);
  const whole = toRange(head.start, last.end);
  const make = (name: string, kind: MaudeSymbolKind, detail: string, sel: readonly Token[]): MaudeSymbol => ({
    name,
    kind,
    detail,
    range: whole,
    selectionRange: sel.length > 0 ? toRange((sel[0] as Token).start, (sel.at(-1) as Token).end) : whole,
    children: [],
  });
  switch (head.text) {
    case "sort":
    case "sorts":
      return words(body).map((w) => make(joined(w), "sort", head.text, w));
    case "subsort":
    case "subsorts":
      return body.length === 0 ? [] : [make(spaced(body), "subsort", head.text, body)];
    case "op":
    case "ops":
    case "var":
    case "vars":
    case "strat":
    case "strats":
      return declarations(head.text, body, make);
    default: {
      const kind = STATEMENT_KIND[head.text];
      if (kind === undefined) return [];
      const label = statementLabel(body);
      return label === undefined ? [] : [make(label.text, kind, head.text, [label])];
    }
  }
}

// `op NAME : ARGS -> RESULT [attrs] .`; `ops`/`vars`/`strats` declare one symbol per word.
function declarations(
  keyword: string,
  body: readonly Token[],
  make: (name: string, kind: MaudeSymbolKind, detail: string, sel: readonly Token[]) => MaudeSymbol,
): MaudeSymbol[] {
  const colon = body.findIndex((t) => t.text === ":");
  if (colon <= 0) return [];
  const names = body.slice(0, colon);
  let sigEnd = body.length;
  // Attributes start at the last top-level `[`; sorts like `List{X}` never contain one.
  for (let k = body.length - 1; k > colon; k--) if ((body[k] as Token).text === "[") sigEnd = k;
  const signature = spaced(body.slice(colon + 1, sigEnd));
  const kind: MaudeSymbolKind = keyword.startsWith("op") ? "operator" : keyword.startsWith("var") ? "variable" : "strategy";
  const detail = signature === "" ? keyword : `${keyword} ${signature}`;
  if (keyword === "op" || keyword === "var" || keyword === "strat") return [make(unparen(joinedSpaced(names)), kind, detail, names)];
  return words(names).map((w) => make(unparen(joined(w)), kind, detail, w));
}

// `eq [label] : lhs = rhs .` or an attribute `[label name]` / `[... label name ...]` at the end.
function statementLabel(body: readonly Token[]): Token | undefined {
  if (body[0]?.text === "[" && body[2]?.text === "]" && body[3]?.text === ":" && body[1] !== undefined) return body[1];
  for (let k = body.length - 2; k >= 0; k--) {
    if ((body[k] as Token).text === "label") return body[k + 1]?.text === "]" ? undefined : body[k + 1];
    if ((body[k] as Token).text === "[") break;
  }
  return undefined;
}

// Runs of tokens written without whitespace between them (`List{X}`), plus bracketed groups.
function words(tokens: readonly Token[]): Token[][] {
  const out: Token[][] = [];
  let depth = 0;
  for (const t of tokens) {
    const prev = out.at(-1)?.at(-1);
    if (prev !== undefined && (depth > 0 || prev.end === t.start)) (out.at(-1) as Token[]).push(t);
    else out.push([t]);
    if (t.text === "(" || t.text === "{") depth++;
    else if ((t.text === ")" || t.text === "}") && depth > 0) depth--;
  }
  return out;
}

function joined(run: readonly Token[]): string {
  return run.map((t) => t.text).join("");
}

// Tokens joined the way they were written: no space where the source had none.
function joinedSpaced(run: readonly Token[]): string {
  let s = "";
  run.forEach((t, k) => {
    const prev = run[k - 1];
    s += prev !== undefined && prev.end !== t.start ? ` ${t.text}` : t.text;
  });
  return s;
}

function spaced(run: readonly Token[]): string {
  return joinedSpaced(run);
}

// `ops (_+_) (_*_) : ...` names operators in parentheses; the name is what is inside.
function unparen(name: string): string {
  return name.length > 2 && name.startsWith("(") && name.endsWith(")") ? name.slice(1, -1) : name;
}
