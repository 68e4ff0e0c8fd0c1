import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseMaudeStderr } from "../../servers/maude/src/stderr-parser.js";

describe("parseMaudeStderr", () => {
  test("the quoted-file form with a context", () => {
    const r = parseMaudeStderr('Warning: "a.maude", line 6 (fmod BROKEN): missing is keyword.\n');
    expect(r.warnings).toEqual([{ file: "a.maude", line: 6, context: "fmod BROKEN", message: "missing is keyword." }]);
    expect(r.other).toEqual([]);
  });

  test("without a context, and with a space before the colon", () => {
    const r = parseMaudeStderr(
      [
        'Warning: "a.maude", line 12: no parse for term.',
        'Warning: "a.maude", line 9 (fmod M) : unexpected end of tokens.',
        'Warning: "a.maude", line 17 : unexpected end of tokens.',
      ].join("\n"),
    );
    expect(r.warnings.map((w) => [w.line, w.context, w.message])).toEqual([
      [12, null, "no parse for term."],
      [9, "fmod M", "unexpected end of tokens."],
      [17, null, "unexpected end of tokens."],
    ]);
  });

  test("<standard input> has no file", () => {
    const r = parseMaudeStderr("Warning: <standard input>, line 3: bad token x.\n");
    expect(r.warnings).toEqual([{ file: null, line: 3, context: null, message: "bad token x." }]);
  });

  test("continuation lines join the message after \\n; blank lines are dropped", () => {
    const r = parseMaudeStderr(
      [
        'Warning: "m.maude", line 8 (fmod M): didn\'t expect token N:',
        "eq g ( N ) = N N <---*HERE*",
        "",
        'Warning: "m.maude", line 11 (fmod M): assoc operator k has 0 rather than',
        "    2 domain sorts.",
        "   ",
        "",
      ].join("\r\n"),
    );
    expect(r.warnings.map((w) => w.message)).toEqual([
      "didn't expect token N:\neq g ( N ) = N N <---*HERE*",
      "assoc operator k has 0 rather than\n    2 domain sorts.",
    ]);
  });

  test("<command line> warnings are fatal notices, not diagnostics", () => {
    const r = parseMaudeStderr("Warning: <command line>: unable to locate file: x.maude\n");
    expect(r.warnings).toEqual([]);
    expect(r.fatal).toEqual(["unable to locate file: x.maude"]);
  });

  test("other lines are kept, and other headers end a continuation", () => {
    const r = parseMaudeStderr(
      ["noise before", 'Warning: "a.maude", line 1: x.', "Advisory: something.", "fatal flex scanner internal error--end of buffer missed"].join("\n"),
    );
    expect(r.warnings.map((w) => w.message)).toEqual(["x."]);
    expect(r.other).toEqual(["noise before", "Advisory: something.", "fatal flex scanner internal error--end of buffer missed"]);
  });

  test("a warning without a place goes on line 1 of the checked file, with its continuation", () => {
    const r = parseMaudeStderr("Warning: something odd happened\n  in detail\n");
    expect(r.warnings).toEqual([{ file: null, line: 1, context: null, message: "something odd happened\n  in detail" }]);
  });

  test("empty input", () => {
    expect(parseMaudeStderr("")).toEqual({ warnings: [], fatal: [], other: [] });
  });

  test("round trip: warnings printed the way Maude prints them parse back (property)", () => {
    const text = fc
      .string({ minLength: 1, maxLength: 30 })
      .filter((t) => !/[\n\r]/.test(t) && t.trim() === t && t !== "" && !/^(Warning|Advisory|Error|Fatal error|Maude internal error)\b|^fatal /i.test(t));
    const warning = fc.record({
      file: fc.option(fc.stringMatching(/^[a-z][a-z0-9-]{0,12}\.maude$/), { nil: null }),
      line: fc.integer({ min: 1, max: 100_000 }),
      context: fc.option(fc.stringMatching(/^(fmod|mod|view) [A-Z][A-Z0-9-]{0,10}$/), { nil: null }),
      first: text,
      rest: fc.array(text, { maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.array(warning, { maxLength: 8 }), (ws) => {
        const printed = ws
          .map((w) => {
            const where = w.file === null ? "<standard input>" : `"${w.file}"`;
            const ctx = w.context === null ? "" : ` (${w.context})`;
            return [`Warning: ${where}, line ${w.line}${ctx}: ${w.first}`, ...w.rest].join("\n");
          })
          .join("\n");
        const parsed = parseMaudeStderr(printed);
        expect(parsed.warnings).toEqual(ws.map((w) => ({ file: w.file, line: w.line, context: w.context, message: [w.first, ...w.rest].join("\n") })));
        expect(parsed.other).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});
