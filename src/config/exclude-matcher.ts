/**
 * Compiles a workspace's `exclude` patterns into a predicate over paths relative to its root
 * ("src/gen/a.ts", "/" separators). The syntax is a small gitignore-like glob:
 * - `*` matches within one path segment, `?` one character of a segment, `**` as a whole segment
 *   any number of segments (zero included);
 * - a pattern without "/" (`node_modules`, `*.min.js`) matches a file or folder of that name at any
 *   depth; a pattern with "/" (`build/**`, `src/gen`) is anchored at the root; a trailing "/" is ignored;
 * - a path is excluded when it or any folder above it matches, so `check` can skip whole folders.
 * The predicate is pure and never throws.
 */
export function compileExclude(patterns: readonly string[]): (relativePath: string) => boolean {
  const matchers = patterns.map(compilePattern);
  return (relativePath) => {
    const segments = relativePath.split("/").filter((segment) => segment !== "" && segment !== ".");
    // Every prefix is a folder above the path (or the path itself).
    return segments.some((_, end) => matchers.some((matches) => matches(segments.slice(0, end + 1))));
  };
}

function compilePattern(pattern: string): (segments: readonly string[]) => boolean {
  const trimmed = pattern.replace(/\/+$/, "");
  const parts = trimmed.split("/").filter((segment) => segment !== "");
  if (!trimmed.includes("/")) {
    const name = segmentRegex(trimmed);
    return (segments) => name.test(segments[segments.length - 1] ?? "");
  }
  const regexes = parts.map((part) => (part === "**" ? null : segmentRegex(part)));
  return (segments) => matchFrom(regexes, 0, segments, 0);
}

/** Backtracking match of pattern segments against path segments; `null` stands for `**`. */
function matchFrom(regexes: readonly (RegExp | null)[], p: number, segments: readonly string[], s: number): boolean {
  if (p === regexes.length) return s === segments.length;
  const regex = regexes[p];
  if (regex === null) {
    for (let next = s; next <= segments.length; next++) if (matchFrom(regexes, p + 1, segments, next)) return true;
    return false;
  }
  return regex !== undefined && s < segments.length && regex.test(segments[s] ?? "") && matchFrom(regexes, p + 1, segments, s + 1);
}

function segmentRegex(part: string): RegExp {
  const source = [...part].map((char) => (char === "*" ? "[^/]*" : char === "?" ? "[^/]" : char.replace(/[.+^${}()|[\]\\]/g, "\\$&"))).join("");
  return new RegExp(`^${source}$`);
}
