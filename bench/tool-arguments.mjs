// Generated tool arguments for the MCP argument fuzz, shared by the short property test in CI
// (tests/hostile/mcp-input.test.ts) and the soak's fuzz at scale (bench/soak-fuzz.mjs): mostly
// well-typed, sometimes odd values, sometimes unknown keys, from and around each tool's schema.
// A tool without its own entry (a new one) gets the generic arguments, so that every tool the
// bridge lists is fuzzed the day it exists; give it an entry for arguments closer to its schema.
import fc from "fast-check";

// Strings that break naive code: NUL, traversal, absolute escapes, lone surrogates, huge, emoji.
const oddString = fc.oneof(
  fc.constantFrom(
    "a.fk",
    "b.fk",
    "./a.fk",
    "a.ot",
    "missing.fk",
    "../a.fk",
    "../../etc/passwd",
    "/etc/passwd",
    "/proc/self/environ",
    "a.fk\u0000.fk",
    "",
    ".",
    "..",
    "a.FK",
    "\ud800.fk",
    "😀.fk",
    "a.fk/",
    "//a.fk",
    "fake",
    "other",
    "ws",
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.integer({ min: 1000, max: 300_000 }).map((n) => "x".repeat(n)),
);
const oddNumber = fc.oneof(
  fc.integer({ min: -3, max: 8 }),
  fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, -(2 ** 53), 1e308, 0.5, -0.0, Number.MAX_SAFE_INTEGER),
  fc.double(),
);
const oddValue = fc.oneof(
  oddString,
  oddNumber,
  fc.boolean(),
  fc.constant(null),
  fc.array(oddString, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
);

/** Mostly `good`, one time in twelve an odd value of any type. */
const mostly = (good) => fc.oneof({ weight: 11, arbitrary: good }, { weight: 1, arbitrary: oddValue });

/**
 * The arbitrary of one call, `[tool, arguments]`, over `tools` (the names the bridge lists), for
 * the fake workspace of the hostile tests: workspace `ws`, servers `fake` (.fk) and `other` (.ot),
 * files `a.fk`, `b.fk`, `a.ot`, each holding the functions `alpha` and `beta`.
 */
export function toolCallArbitrary(tools) {
  const position = mostly(fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 6 }) }, { weight: 1, arbitrary: oddNumber }));
  const page = mostly(fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 5 }) }, { weight: 1, arbitrary: oddNumber }));
  const filePath = mostly(fc.oneof({ weight: 2, arbitrary: fc.constantFrom("a.fk", "b.fk", "a.ot") }, { weight: 1, arbitrary: oddString }));
  const common = {
    workspace: mostly(fc.constant("ws")),
    server: mostly(fc.constantFrom("fake", "other")),
    max_bytes: mostly(fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1, max: 40_000 }) }, { weight: 1, arbitrary: oddNumber })),
  };
  /** Arguments for each tool: its own keys, mostly well-typed, sometimes odd, sometimes unknown ones. */
  const own = {
    session_status: fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.record({ extra: oddValue }) }),
    diagnostics: fc
      .tuple(
        fc.record({ ...common, min_severity: mostly(fc.constantFrom("error", "warning", "hint")), offset: page, limit: page }, { requiredKeys: [] }),
        // Exactly one of path and paths, mostly; sometimes both or neither.
        fc.oneof(
          { weight: 4, arbitrary: fc.record({ path: filePath }) },
          { weight: 4, arbitrary: fc.record({ paths: mostly(fc.array(filePath, { minLength: 1, maxLength: 4 })) }) },
          { weight: 1, arbitrary: fc.record({ path: filePath, paths: mostly(fc.array(filePath, { maxLength: 4 })) }, { requiredKeys: [] }) },
        ),
      )
      .map(([rest, target]) => ({ ...rest, ...target })),
    hover: fc.record({ ...common, path: filePath, line: position, column: position }, { requiredKeys: ["path", "line", "column"] }),
    document_symbols: fc.record({ ...common, path: filePath, offset: page, limit: page }, { requiredKeys: ["path"] }),
    workspace_symbols: fc.record(
      { ...common, query: mostly(fc.oneof(fc.constantFrom("alpha", ""), oddString)), offset: page, limit: page },
      { requiredKeys: [] },
    ),
    session_restart: fc.record({ workspace: common.workspace, server: common.server }, { requiredKeys: ["server"] }),
  };
  // Any other tool (the navigation tools, code actions, rename preview): the keys such tools
  // take, a position mostly given as line + column, sometimes as a symbol name.
  const generic = fc.record(
    {
      ...common,
      path: filePath,
      line: position,
      column: position,
      symbol: mostly(fc.constantFrom("alpha", "beta", "alpha.beta", "missing")),
      offset: page,
      limit: page,
      query: mostly(fc.constantFrom("alpha", "")),
      direction: mostly(fc.constantFrom("incoming", "outgoing")),
      include_declaration: mostly(fc.boolean()),
      new_name: mostly(fc.constantFrom("gamma", "", "a b")),
      kinds: mostly(fc.array(fc.constantFrom("quickfix", "refactor", "source"), { maxLength: 2 })),
    },
    { requiredKeys: ["path"] },
  );
  return fc
    .constantFrom(...tools)
    .chain((tool) =>
      fc.tuple(
        fc.constant(tool),
        own[tool] ?? generic,
        fc.oneof({ weight: 7, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 12 }), oddValue) }),
      ),
    )
    .map(([tool, args, extra]) => [tool, extra ? { ...args, [extra[0]]: extra[1] } : args]);
}

/**
 * What is wrong with one tool result by the contract, or null: a success carries an object as
 * structuredContent; a failure carries none and one text item holding `{ error: { code, message,
 * details } }` with a code of `codes`, never `Internal`. Returns `{ code, problem }`.
 */
export function judgeToolResult(result, codes) {
  if (!result.isError) {
    const ok = result.structuredContent !== null && typeof result.structuredContent === "object";
    return { code: "ok", problem: ok ? null : "a success without structuredContent" };
  }
  if (result.structuredContent !== undefined) return { code: "?", problem: "an error with structuredContent" };
  if (!Array.isArray(result.content) || result.content.length !== 1) return { code: "?", problem: "an error without exactly one content item" };
  let payload;
  try {
    payload = JSON.parse(result.content[0].text);
  } catch {
    return { code: "?", problem: `an error whose text is not JSON: ${String(result.content[0].text).slice(0, 200)}` };
  }
  const error = payload?.error;
  const code = error?.code;
  if (Object.keys(payload ?? {}).join() !== "error") return { code: "?", problem: "an error payload with keys other than error" };
  if (!codes.has(code)) return { code: String(code), problem: `unknown error code ${code}` };
  if (code === "Internal") return { code, problem: `Internal: ${error.message}` };
  if (typeof error.message !== "string" || error.details === null || typeof error.details !== "object")
    return { code, problem: "an error without message or details" };
  return { code, problem: null };
}
