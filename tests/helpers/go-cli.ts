import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Finding } from "./differential.js";

/**
 * What Go's own tools say about a module, as findings in the bridge's positions (1-based lines,
 * code-point columns; Go counts bytes): the compiler's type errors from `go build -gcflags=-e
 * ./...` (every error, not the first ten; start positions only), and the analyzers' findings from
 * `go vet -json ./...` (start and end). `code` is where each came from: "compiler", or the vet
 * analyzer's name, which is what gopls gives as the diagnostic's source.
 */
export async function goFindings(root: string): Promise<{ compiler: Finding[]; vet: Finding[] }> {
  const env = { ...process.env, GOPROXY: "off", GOTOOLCHAIN: "local" };
  const lines = new Map<string, string[]>();
  const at = (file: string, row: number, byteColumn: number) => {
    const text = (lines.get(file) ?? lines.set(file, readFileSync(join(root, file), "utf8").split("\n")).get(file)!)[row - 1] ?? "";
    return {
      line: row,
      column:
        [
          ...Buffer.from(text)
            .subarray(0, byteColumn - 1)
            .toString("utf8"),
        ].length + 1,
    };
  };

  const build = await run("go", ["build", "-gcflags=-e", "./..."], root, env);
  const compiler: Finding[] = [];
  for (const line of build.stderr.split("\n")) {
    const match = /^(\S+\.go):(\d+):(\d+): (.*)$/.exec(line);
    if (!match) continue;
    const [, path, row, column, message] = match;
    const start = at(path!, Number(row), Number(column));
    compiler.push({ path: path!, range: { start, end: start }, severity: "error", code: "compiler", message: message! });
  }

  const vetRun = await run("go", ["vet", "-json", "./..."], root, env);
  const vet: Finding[] = [];
  for (const report of jsonObjects(vetRun.stdout) as Record<string, Record<string, { posn: string; end?: string; message: string }[]>>[]) {
    for (const analyzers of Object.values(report)) {
      for (const [analyzer, found] of Object.entries(analyzers)) {
        for (const { posn, end, message } of found) {
          const place = (where: string) => {
            const [, file, row, column] = /^(.+):(\d+):(\d+)$/.exec(where)!;
            const path = relative(root, file!);
            return { path, position: at(path, Number(row), Number(column)) };
          };
          const start = place(posn);
          vet.push({ path: start.path, range: { start: start.position, end: place(end ?? posn).position }, severity: "warning", code: analyzer, message });
        }
      }
    }
  }
  return { compiler, vet };
}

/** The JSON objects `go vet -json` prints one after another (one per package). */
function jsonObjects(text: string): unknown[] {
  const objects: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" && depth++ === 0) start = i;
    else if (c === "}" && --depth === 0) objects.push(JSON.parse(text.slice(start, i + 1)));
  }
  return objects;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }> {
  // Exit status 1 means "found something", which is what the fixtures are for.
  return new Promise((resolve, reject) =>
    execFile(command, args, { cwd, env, maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
      error && (error as { code?: unknown }).code !== 1 ? reject(error) : resolve({ stdout, stderr }),
    ),
  );
}
