import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { findingKeys, pyrightCliFindings, startKeys, tscFindings, type Finding } from "./differential.js";
import { goFindings } from "./go-cli.js";
import { tempDir } from "./temp.js";

// The truth a `diagnostics` preview (`changes`) is held to, from outside the bridge: the compiler's
// own CLI run on a copy of the workspace as it is and on a copy with the change written, and the
// two runs split into introduced, resolved and unchanged by the contract's matching rule.

/** One entry of the `changes` argument's list form: a file's whole new text, or null to delete it. */
export interface TextChange {
  readonly path: string;
  readonly text: string | null;
}

/** A `diagnostics` item as the bridge gives it: a finding with the server's `source`. */
export type BridgeFinding = Finding & { readonly source: string | null };

/** What a compiler's CLI says, and how the bridge's answers are read to say it the same way. */
export interface CliOracle {
  readonly name: string;
  /** The CLI's findings for the workspace at `root`, paths relative to it. */
  run(root: string): Promise<Finding[]>;
  /** The bridge's findings as this CLI states them: what the CLI never reports left out, codes as it names them. */
  fromBridge(items: readonly BridgeFinding[]): Finding[];
  /** Sorted comparison keys: the whole range where the CLI prints one, else the start only. */
  keys(findings: readonly Finding[]): string[];
}

/** The pinned TypeScript 7's `tsc --noEmit -p .`; the server's suggestions (hints) are the editor's, never tsc's. */
export const TSC: CliOracle = {
  name: "tsc",
  run: (root) => tscFindings(root),
  fromBridge: (items) => items.filter((item) => item.severity !== "hint"),
  keys: startKeys,
};

/** The pinned pyright's `pyright --outputjson`; its "unnecessary" hints are the editor's only. */
export const PYRIGHT: CliOracle = {
  name: "pyright",
  run: (root) => pyrightCliFindings(root),
  fromBridge: (items) => items.filter((item) => item.severity !== "hint"),
  keys: findingKeys,
};

/**
 * `go build -gcflags=-e ./...` and `go vet -json ./...`: gopls's type errors have source
 * "compiler" and its analyzers' findings the analyzer's name, as the CLI helper names them in
 * `code`. go build prints no end, so start keys.
 */
export const GO: CliOracle = {
  name: "go",
  run: async (root) => {
    const { compiler, vet } = await goFindings(root);
    return [...compiler, ...vet];
  },
  fromBridge: (items) => items.map((item) => ({ ...item, code: item.source === "compiler" ? "compiler" : item.source })),
  keys: startKeys,
};

/** The CLI's answer on the workspace as it is and as the change leaves it, split as a preview splits them. */
export interface CliTruth {
  readonly before: Finding[];
  readonly after: Finding[];
  /** After's findings that no finding of before matches. */
  readonly introduced: Finding[];
  /** Before's findings that no finding of after matches, where they stand before the change. */
  readonly resolved: Finding[];
  readonly unchanged: number;
}

/**
 * Runs `oracle` on two copies of `root` (never on `root` itself, which the bridge serves): one as it
 * is, one with `changes` written (a null text deletes the file). `.git` and `skip` (top-level names,
 * such as a dependency folder) are left out of the copies.
 */
export async function cliTruth(oracle: CliOracle, root: string, changes: readonly TextChange[], skip: readonly string[] = []): Promise<CliTruth> {
  const left = new Set([".git", ...skip]);
  const copy = () => {
    const dir = tempDir(`lspmcp-preview-${oracle.name}-`);
    cpSync(root, dir, { recursive: true, filter: (source) => !left.has(source.slice(root.length + 1).split("/")[0]!) });
    return dir;
  };
  const beforeRoot = copy();
  const afterRoot = copy();
  for (const { path, text } of changes) {
    const file = join(afterRoot, path);
    if (text === null) rmSync(file);
    else {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
  }
  const [before, after] = await Promise.all([oracle.run(beforeRoot), oracle.run(afterRoot)]);
  return { before, after, ...split(before, beforeRoot, after, afterRoot) };
}

/**
 * The contract's matching, written again here rather than borrowed from the bridge: a finding of
 * after is one of before when it is in the same file, with the same severity, code and message,
 * on a line of the same content (trimmed, inner whitespace runs made one space); among equal ones
 * the k-th of after takes the k-th of before, both in position order.
 */
function split(before: readonly Finding[], beforeRoot: string, after: readonly Finding[], afterRoot: string) {
  const identity = (root: string) => {
    const texts = new Map<string, string[]>();
    return (finding: Finding) => {
      const lines = texts.get(finding.path) ?? texts.set(finding.path, readFileSync(join(root, finding.path), "utf8").split("\n")).get(finding.path)!;
      const line = (lines[finding.range.start.line - 1] ?? "").trim().replace(/\s+/g, " ");
      return JSON.stringify([finding.path, finding.severity, finding.code, finding.message, line]);
    };
  };
  const waiting = new Map<string, Finding[]>();
  const beforeIdentity = identity(beforeRoot);
  for (const finding of inPositionOrder(before)) {
    const key = beforeIdentity(finding);
    waiting.set(key, [...(waiting.get(key) ?? []), finding]);
  }
  const afterIdentity = identity(afterRoot);
  const introduced: Finding[] = [];
  let unchanged = 0;
  for (const finding of inPositionOrder(after)) {
    if (waiting.get(afterIdentity(finding))?.shift()) unchanged++;
    else introduced.push(finding);
  }
  return { introduced, resolved: [...waiting.values()].flat(), unchanged };
}

function inPositionOrder(findings: readonly Finding[]): Finding[] {
  const at = ({ range: { start, end } }: Finding) => [start.line, start.column, end.line, end.column];
  return [...findings].sort((a, b) => {
    if (a.path !== b.path) return a.path < b.path ? -1 : 1;
    const [x, y] = [at(a), at(b)];
    return x.map((n, i) => n - y[i]!).find((d) => d !== 0) ?? 0;
  });
}

/** What a test asked the bridge: the scope on disk (a plain call) and the preview's two lists and counts. */
export interface PreviewSeen {
  readonly plain: readonly BridgeFinding[];
  readonly introduced: readonly BridgeFinding[];
  readonly resolved: readonly BridgeFinding[];
  /** introduced, resolved, unchanged, as the preview counted them. */
  readonly counts: readonly [number | undefined, number | undefined, number | undefined];
}

/**
 * Holds a preview to the CLI: the scope on disk says what the CLI says of the workspace, the
 * preview's introduced and resolved lists are the CLI's (as keys: path, position, severity, code,
 * message), and its counts are the CLI's split, so that the findings the preview sees with the
 * change are, one for one, what the CLI says of the changed program. What the CLI never reports
 * (an editor's hints) is left out of the counts too: every finding on disk is either unchanged or
 * resolved, so the unchanged ones left out are those on disk less those resolved. Returns the
 * comparison as one object, for one `toEqual` that shows every difference at once.
 */
export function previewAgainstCli(oracle: CliOracle, seen: PreviewSeen, truth: CliTruth) {
  const [introduced, resolved, unchanged] = seen.counts;
  const leftOut = (items: readonly BridgeFinding[]) => items.length - oracle.fromBridge(items).length;
  const bridgeSide = (items: readonly BridgeFinding[]) => oracle.keys(oracle.fromBridge(items));
  return {
    actual: {
      plain: bridgeSide(seen.plain),
      introduced: bridgeSide(seen.introduced),
      resolved: bridgeSide(seen.resolved),
      // The lists are whole (one page), or the counts would speak of findings not compared.
      listed: [seen.introduced.length, seen.resolved.length],
      counts: [
        oracle.fromBridge(seen.introduced).length,
        oracle.fromBridge(seen.resolved).length,
        (unchanged ?? Number.NaN) - leftOut(seen.plain) + leftOut(seen.resolved),
      ],
    },
    expected: {
      plain: oracle.keys(truth.before),
      introduced: oracle.keys(truth.introduced),
      resolved: oracle.keys(truth.resolved),
      listed: [introduced, resolved],
      counts: [truth.introduced.length, truth.resolved.length, truth.unchanged],
    },
  };
}
