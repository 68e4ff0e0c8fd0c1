import { BridgeError } from "../../contract/errors.js";

/** One hunk of a file's diff: where it starts in the old text, and its lines with their prefixes. */
interface Hunk {
  /** 1-based line of the old text the hunk starts at (0 for a hunk that adds to an empty file). */
  readonly oldStart: number;
  readonly oldLines: number;
  /** The hunk's header as the patch has it (`@@ -1,3 +1,4 @@`), for error messages. */
  readonly header: string;
  /** Each line with its terminator ("\n", or "" when `\ No newline at end of file` follows). */
  readonly lines: readonly { readonly kind: " " | "-" | "+"; readonly text: string }[];
}

/** One file's part of a patch: paths relative to the repository top, as `git diff` names them. */
interface FileDiff {
  /** null for a file the patch creates. */
  readonly oldPath: string | null;
  /** null for a file the patch deletes. */
  readonly newPath: string | null;
  readonly hunks: readonly Hunk[];
}

/**
 * Parses one unified diff as `git diff` prints it (also `diff -u` with `---`/`+++` headers):
 * changed, created (`--- /dev/null`), deleted (`+++ /dev/null`) and renamed files. Mode-only
 * changes carry no text and are left out. A binary diff cannot be previewed, and anything that is
 * not a diff is refused: both `InvalidArguments` with `details.patch`.
 */
export function parseUnifiedDiff(patch: string): FileDiff[] {
  const lines = patch.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const files: FileDiff[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.startsWith("diff --git ")) {
      i = parseGitFile(lines, i, files);
    } else if (line.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) {
      const oldPath = headerPath(line.slice(4));
      const newPath = headerPath(lines[i + 1]!.slice(4));
      const parsed = parseHunks(lines, i + 2, newPath ?? oldPath ?? "");
      files.push({ oldPath, newPath, hunks: parsed.hunks });
      i = parsed.next;
    } else if (line.trim() === "" || !files.length) {
      // Text before the first file (a commit message, `git format-patch`'s header) is not the diff's.
      i++;
    } else {
      throw invalid(`unexpected line ${i + 1} of the patch: ${JSON.stringify(line.slice(0, 80))}`, { line: i + 1 });
    }
  }
  if (files.length === 0) throw invalid("the patch holds no file diff (expected `git diff` output)", {});
  const seen = new Set<string>();
  for (const file of files) {
    for (const path of new Set([file.oldPath, file.newPath])) {
      if (path === null) continue;
      if (seen.has(path)) throw invalid(`the patch changes ${path} twice`, { file: path });
      seen.add(path);
    }
  }
  return files;
}

/** A `diff --git` section from its first line; returns the index of the line after it. */
function parseGitFile(lines: string[], start: number, files: FileDiff[]): number {
  const names = gitHeaderPaths(lines[start]!.slice("diff --git ".length));
  let oldPath: string | null = names?.[0] ?? null;
  let newPath: string | null = names?.[1] ?? null;
  let created = false;
  let deleted = false;
  let i = start + 1;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith("diff --git ") || line.startsWith("@@ ")) break;
    if (line.startsWith("--- ")) {
      oldPath = headerPath(line.slice(4));
      continue;
    }
    if (line.startsWith("+++ ")) {
      newPath = headerPath(line.slice(4));
      continue;
    }
    if (line.startsWith("new file mode")) created = true;
    else if (line.startsWith("deleted file mode")) deleted = true;
    else if (line.startsWith("rename from ")) oldPath = unquote(line.slice("rename from ".length));
    else if (line.startsWith("rename to ")) newPath = unquote(line.slice("rename to ".length));
    else if (line.startsWith("copy from ") || line.startsWith("copy to ")) {
      throw invalid("a copy in a patch cannot be previewed: give the copied file's text as { path, text }", { file: newPath ?? oldPath });
    } else if (line.startsWith("Binary files ") || line === "GIT binary patch") {
      throw invalid(`${newPath ?? oldPath}: a binary diff cannot be previewed`, { file: newPath ?? oldPath });
    }
  }
  if (created) oldPath = null;
  if (deleted) newPath = null;
  if (oldPath === null && newPath === null) throw invalid(`line ${start + 1}: a file diff that names no file`, { line: start + 1 });
  const parsed = lines[i]?.startsWith("@@ ") ? parseHunks(lines, i, (newPath ?? oldPath)!) : { hunks: [], next: i };
  // A mode change alone changes no text; a created empty file or a pure rename does.
  if (parsed.hunks.length > 0 || created || deleted || oldPath !== newPath) files.push({ oldPath, newPath, hunks: parsed.hunks });
  return parsed.next;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

function parseHunks(lines: string[], start: number, file: string): { hunks: Hunk[]; next: number } {
  const hunks: Hunk[] = [];
  let i = start;
  while (i < lines.length && lines[i]!.startsWith("@@ ")) {
    const header = lines[i]!;
    const match = HUNK_HEADER.exec(header);
    if (!match) throw invalid(`${file}: malformed hunk header ${JSON.stringify(header)}`, { file, hunk: hunks.length + 1 });
    const oldLines = match[2] === undefined ? 1 : Number(match[2]);
    const newLines = match[4] === undefined ? 1 : Number(match[4]);
    let oldLeft = oldLines;
    let newLeft = newLines;
    const body: { kind: " " | "-" | "+"; text: string }[] = [];
    i++;
    while (oldLeft > 0 || newLeft > 0) {
      const line = lines[i];
      if (line === undefined) throw invalid(`${file}: hunk ${hunks.length + 1} (${header}) ends early`, { file, hunk: hunks.length + 1, header });
      // An empty line is a context line whose space some tools (editors, mail) stripped.
      const kind = line === "" ? " " : line[0];
      if (kind !== " " && kind !== "-" && kind !== "+") {
        if (line.startsWith("\\")) {
          noNewline(body);
          i++;
          continue;
        }
        throw invalid(`${file}: hunk ${hunks.length + 1} (${header}) has a line that is not context, - or +: ${JSON.stringify(line.slice(0, 80))}`, {
          file,
          hunk: hunks.length + 1,
          header,
        });
      }
      if (kind !== "+") oldLeft--;
      if (kind !== "-") newLeft--;
      if (oldLeft < 0 || newLeft < 0)
        throw invalid(`${file}: hunk ${hunks.length + 1} (${header}) has more lines than its header says`, { file, hunk: hunks.length + 1, header });
      body.push({ kind, text: `${line.slice(1)}\n` });
      i++;
    }
    if (lines[i]?.startsWith("\\")) {
      noNewline(body);
      i++;
    }
    hunks.push({ oldStart: Number(match[1]), oldLines, header, lines: body });
  }
  return { hunks, next: i };
}

/** `\ No newline at end of file` (in any language git speaks) takes the newline off the line before it. */
function noNewline(body: { kind: " " | "-" | "+"; text: string }[]): void {
  const last = body[body.length - 1];
  if (last?.text.endsWith("\n")) body[body.length - 1] = { kind: last.kind, text: last.text.slice(0, -1) };
}

/** `a/x b/y` (or quoted) from a `diff --git` line, without the a/ b/ prefixes; null when ambiguous. */
function gitHeaderPaths(rest: string): [string, string] | null {
  if (rest.startsWith('"')) {
    const end = closingQuote(rest);
    const first = unquote(rest.slice(0, end + 1));
    const second = unquote(rest.slice(end + 2));
    return [stripPrefix(first), stripPrefix(second)];
  }
  // Unquoted: both halves are equal for a change; a rename says its names on `rename` lines.
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest[half] === " ") {
    const first = rest.slice(0, half);
    const second = rest.slice(half + 1);
    if (first.slice(2) === second.slice(2)) return [stripPrefix(first), stripPrefix(second)];
  }
  return null;
}

/** A `---`/`+++` header's path: /dev/null is none; the a/ b/ prefix and a trailing timestamp go. */
function headerPath(raw: string): string | null {
  const name = raw.startsWith('"') ? unquote(raw.slice(0, closingQuote(raw) + 1)) : raw.split("\t")[0]!.trimEnd();
  if (name === "/dev/null") return null;
  return stripPrefix(name);
}

function stripPrefix(path: string): string {
  return /^[abciwo12]\//.test(path) ? path.slice(2) : path;
}

function closingQuote(text: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}

/** A path as git quotes it (C escapes, octal bytes of UTF-8), or as it is when not quoted. */
function unquote(text: string): string {
  if (!text.startsWith('"')) return text;
  const bytes: number[] = [];
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, '"': 34, "\\": 92, a: 7, b: 8, f: 12, v: 11 };
  const body = text.slice(1, text.endsWith('"') ? -1 : undefined);
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char !== "\\") {
      bytes.push(...Buffer.from(char, "utf8"));
      continue;
    }
    const next = body[i + 1] ?? "";
    if (/[0-7]/.test(next)) {
      bytes.push(Number.parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/**
 * Applies one file's hunks to its old text, as `git apply` does without fuzz: each hunk's context
 * and removed lines must match exactly, at the line its header names or, failing that, at the
 * nearest place after the previous hunk (an offset). A hunk that matches nowhere is
 * `InvalidArguments` with `details.patch` naming the file and the hunk (1-based).
 */
export function applyHunks(file: string, oldText: string, hunks: readonly Hunk[]): string {
  const old = splitLines(oldText);
  const out: string[] = [];
  let cursor = 0;
  hunks.forEach((hunk, index) => {
    const expected = hunk.lines.filter((line) => line.kind !== "+").map((line) => line.text);
    const wanted = hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1;
    const at = findBlock(old, expected, Math.max(wanted, cursor), cursor);
    if (at === null) {
      throw invalid(`${file}: hunk ${index + 1} (${hunk.header}) does not apply to the file as it is on disk`, {
        file,
        hunk: index + 1,
        header: hunk.header,
      });
    }
    out.push(...old.slice(cursor, at));
    for (const line of hunk.lines) if (line.kind !== "-") out.push(line.text);
    cursor = at + expected.length;
  });
  out.push(...old.slice(cursor));
  return out.join("");
}

/** Lines with their terminators; the last one may have none. */
function splitLines(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  return lines[lines.length - 1] === "" ? lines.slice(0, -1) : lines;
}

/** Where `block` occurs in `lines` at or after `floor`, nearest to `wanted`; null when nowhere. */
function findBlock(lines: readonly string[], block: readonly string[], wanted: number, floor: number): number | null {
  const fits = (at: number) => at >= floor && at + block.length <= lines.length && block.every((line, k) => lines[at + k] === line);
  for (let offset = 0; wanted - offset >= floor || wanted + offset <= lines.length; offset++) {
    if (fits(wanted - offset)) return wanted - offset;
    if (fits(wanted + offset)) return wanted + offset;
  }
  return null;
}

function invalid(message: string, patch: Record<string, unknown>): BridgeError {
  return new BridgeError("InvalidArguments", `changes.patch: ${message}`, { fields: ["changes"], patch });
}
