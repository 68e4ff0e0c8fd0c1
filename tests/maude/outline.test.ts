import { existsSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { lexMaude } from "../../servers/maude/src/lexer.js";
import { parseMaudeStderr } from "../../servers/maude/src/stderr-parser.js";
import { WarningLocator } from "../../servers/maude/src/token-range.js";
import { outlineMaude, type MaudeSymbol } from "../../servers/maude/src/outline.js";
import { fixtureText } from "./helpers/server-process.js";

/** Symbols rendered as indented lines: `kind name (detail)`. */
function render(symbols: readonly MaudeSymbol[], depth = 0): string[] {
  return symbols.flatMap((s) => [`${"  ".repeat(depth)}${s.kind} ${s.name} (${s.detail})`, ...render(s.children, depth + 1)]);
}

describe("outlineMaude", () => {
  test("the clean fixture", () => {
    const r = outlineMaude(fixtureText("clean.maude"));
    expect(r.errors).toEqual([]);
    expect(render(r.symbols)).toEqual([
      "module GREETING (fmod)",
      "  sort Greeting (sorts)",
      "  sort Name (sorts)",
      "  subsort Name < Greeting (subsort)",
      "  operator hello (op -> Greeting)",
      "  operator greet (op Name -> Greeting)",
      "  operator _and_ (op Greeting Greeting -> Greeting)",
      "  variable N (var Name)",
      "  variable G (vars Greeting)",
      "  variable H (vars Greeting)",
      "  equation greet-name (eq)",
      "  equation idem (eq)",
      "module COUNTER (mod)",
      "  sort Counter (sort)",
      "  operator c (op Nat -> Counter)",
      "  variable K (var Nat)",
      "  rule tick (rl)",
    ]);
  });

  test("ranges: a module spans header to end keyword; selection is its name", () => {
    const text = "fmod GREETING is\n  sort G .\nendfm\n";
    const [mod] = outlineMaude(text).symbols;
    expect(mod?.range).toEqual({ start: { line: 0, character: 0 }, end: { line: 2, character: 5 } });
    expect(mod?.selectionRange).toEqual({ start: { line: 0, character: 5 }, end: { line: 0, character: 13 } });
    expect(mod?.children[0]?.selectionRange).toEqual({ start: { line: 1, character: 7 }, end: { line: 1, character: 8 } });
  });

  test("theories, views, parameterised modules and ops in parentheses", () => {
    const text = [
      "fth T is sort Elt . endfth",
      "fmod LIST{X :: T} is",
      "  sort List{X} .",
      "  ops (_+_) nil : -> List{X} .",
      "endfm",
      "view V from T to NAT is sort Elt to Nat . endv",
      "th R is sort S . rl [r] : a => b . endth",
      "smod S is strat st : @ Nat . sd st := idle . endsm",
    ].join("\n");
    expect(render(outlineMaude(text).symbols)).toEqual([
      "module T (fth)",
      "  sort Elt (sort)",
      "module LIST (fmod {X :: T})",
      "  sort List{X} (sort)",
      "  operator _+_ (ops -> List{X})",
      "  operator nil (ops -> List{X})",
      "view V (view from T to NAT)",
      "module R (th)",
      "  sort S (sort)",
      "  rule r (rl)",
      "module S (smod)",
      "  strategy st (strat @ Nat)",
    ]);
  });

  test("comments and strings hide keywords; load directives are found", () => {
    const text = ["--- fmod NOT is endfm", "***( fmod NOR is", " endfm )", "load lib/x.maude", 'red "fmod Q is" .', "fmod YES is endfm"].join("\n");
    const r = outlineMaude(text);
    expect(render(r.symbols)).toEqual(["module YES (fmod)"]);
    expect(r.loads.map((l) => [l.command, l.path, l.line])).toEqual([["load", "lib/x.maude", 3]]);
  });

  test("structural problems are errors, not exceptions", () => {
    const r = outlineMaude("fmod A is\n sort S .\nfmod B is sort T . endm\nendfm\n***( open");
    expect(render(r.symbols)).toEqual(["module A (fmod)", "  sort S (sort)", "module B (fmod)", "  sort T (sort)"]);
    expect(r.errors.map((e) => e.message)).toEqual([
      "unterminated multi-line comment",
      "fmod A is not closed by endfm",
      "fmod B closed by endm, expected endfm",
      "endfm outside of a module",
    ]);
  });

  test("end keywords inside meta-level terms do not close the module; an unbalanced ( does not swallow the next", () => {
    const meta = "fmod META is\n  eq getSorts(fmod H is IL sorts SS . EQS endfm) = SS .\n  eq q = (sth Q is sorts none . endsth) .\n  op z : -> Z .\nendfm\n";
    expect(render(outlineMaude(meta).symbols)).toEqual(["module META (fmod)", "  operator z (op -> Z)"]);
    const unbalanced = "fmod A is\n  op f : ( -> A .\nendfm\nfmod B is sort S . endfm\n";
    expect(outlineMaude(unbalanced).symbols.map((m) => m.name)).toEqual(["A", "B"]);
  });

  test("Maude's own prelude: 85 modules, no structural errors", () => {
    const prelude = "/usr/share/maude/prelude.maude";
    if (!existsSync(prelude)) throw new Error(`${prelude} is missing: install the Debian package maude (3.2)`);
    const r = outlineMaude(readFileSync(prelude, "utf8"));
    expect(r.errors).toEqual([]);
    expect(r.symbols).toHaveLength(85);
    expect(r.symbols.map((m) => m.name)).toContain("META-LEVEL");
  });

  test("a file with no module has no symbols", () => {
    expect(outlineMaude(fixtureText("no-module.maude"))).toEqual({ symbols: [], loads: [], errors: [] });
  });

  test("positions count lines as LSP does: \\n, \\r\\n and a lone \\r each end one", () => {
    const at = (text: string) => lexMaude(text).tokens.map((t) => [t.text, t.line, t.character]);
    expect(at("a\rb\r\nc\nd")).toEqual([
      ["a", 0, 0],
      ["b", 1, 0],
      ["c", 2, 0],
      ["d", 3, 0],
    ]);
    expect(outlineMaude("fmod A is\r  sort S .\rendfm\r").symbols[0]?.range).toEqual({ start: { line: 0, character: 0 }, end: { line: 2, character: 5 } });
  });

  test("never throws, and keeps ranges inside the text (property)", () => {
    const maudeish = fc.array(
      fc.oneof(
        fc.constantFrom(
          "fmod",
          "mod",
          "th",
          "view",
          "endfm",
          "endm",
          "endv",
          "is",
          "sort",
          "sorts",
          "op",
          "ops",
          "var",
          "eq",
          "rl",
          "[",
          "]",
          "{",
          "}",
          "(",
          ")",
          ":",
          ".",
          "->",
          "load",
          "***(",
          "---",
          '"',
          "`",
          "\n",
          " ",
          "🎉",
          "label",
        ),
        fc.string(),
      ),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: "binary" }),
          maudeish.map((parts) => parts.join(" ")),
        ),
        (text) => {
          const r = outlineMaude(text);
          const lines = lexMaude(text).document.lineCount;
          const check = (s: MaudeSymbol): void => {
            expect(s.range.end.line).toBeLessThan(lines);
            expect(s.selectionRange.start.line).toBeGreaterThanOrEqual(s.range.start.line);
            s.children.forEach(check);
          };
          r.symbols.forEach(check);
          new WarningLocator(text).rangeFor(3, "bad token x.");
          parseMaudeStderr(text);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
