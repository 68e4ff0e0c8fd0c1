import { z } from "zod";
import { mergeServerDiagnostics, type BridgeDiagnostic } from "../contract/diagnostic-order.js";
import { severityRank } from "../contract/names.js";
import { compareStrings } from "../contract/compare.js";
import { boundedPage, limitBytes } from "./bounded-answer.js";
import { limitArg, maxBytesArg, offsetArg, pageFields, pathArg, RangeSchema, serverArg, SeveritySchema, workspaceArg } from "./common-schemas.js";
import { DEFAULT_BATCH_SIZE, diagnoseTargets } from "../diagnostics/diagnose-targets.js";
import { discoverForCall } from "../diagnostics/discover-targets.js";
import type { FileDiagnostics } from "../diagnostics/file-diagnostics.js";
import { BridgeError } from "../contract/errors.js";
import { diagnoseSince } from "../diagnostics/since/diagnose-since.js";
import { splitMerged } from "../diagnostics/findings/place-findings.js";
import { defineTool } from "./tool-definition.js";

const DiagnosticItemSchema = z.object({
  path: z.string(),
  range: RangeSchema,
  severity: SeveritySchema,
  code: z.string().nullable(),
  source: z.string().nullable(),
  message: z.string(),
  channels: z.array(z.enum(["pull", "push"])),
});

const inputSchema = z
  .strictObject({
    workspace: workspaceArg,
    server: serverArg,
    path: pathArg
      .optional()
      .describe('A file, or a folder (every claimed file under it; "." is the workspace root), relative to the workspace root or absolute inside it.'),
    paths: z.array(pathArg).min(1).max(1000).optional().describe("Several files and folders at once; results are merged in canonical order."),
    min_severity: SeveritySchema.optional().describe("Leave out diagnostics less severe than this."),
    since: z
      .string()
      .min(1)
      .max(1000)
      .optional()
      .describe(
        'A git revision ("HEAD", "HEAD~3", "origin/main", a tag or commit): compare with it and return only what changed (see `show`); the same scope is also checked in a snapshot of that revision.',
      ),
    show: z
      .enum(["introduced", "resolved"])
      .optional()
      .describe(
        "With `since`: `introduced` (default) lists findings present now and not at the revision; `resolved` lists those gone since, where they were at the revision.",
      ),
    offset: offsetArg,
    limit: limitArg,
    max_bytes: maxBytesArg,
  })
  .refine((args) => (args.path === undefined) !== (args.paths === undefined), {
    message: "give exactly one of `path` and `paths`",
    path: ["path"],
  });

/**
 * `diagnostics`: for files and folders (CONTRACT §4.2). Folders expand as `lspmcp check` expands
 * them; every file is synced from disk and answered only once its server has settled for that
 * version, through the same many-file pipeline as `check` (`diagnoseTargets`: a pool per session,
 * a deadline per file), so a clean answer always means clean. Without `server`, every server
 * claiming a file answers for it; one failing fails the call, never a half answer. Documents stay
 * open, so a repeated call sends only the files that changed on disk.
 */
export const diagnosticsTool = defineTool({
  name: "diagnostics",
  title: "Diagnostics",
  description:
    "Compiler and linter diagnostics of files or folders as they are on disk now, once each server has settled (never a partial answer); `files` counts the files checked.",
  inputSchema,
  outputSchema: z.object({
    items: z.array(DiagnosticItemSchema),
    ...pageFields,
    files: z.number().int(),
    since: z.object({ revision: z.string(), commit: z.string() }).optional(),
    introduced: z.number().int().optional(),
    resolved: z.number().int().optional(),
    unchanged: z.number().int().optional(),
    // Files a server did not check at all (gopls: build constraints leave them out), never findings:
    // "PATH (SERVER): why", as plain strings, which the tools/list budget has room for.
    not_checked: z.array(z.string()).optional(),
  }),
  handler: async (args, context) => {
    if (args.show !== undefined && args.since === undefined) {
      throw new BridgeError("InvalidArguments", "`show` needs `since`: it chooses between the findings introduced and resolved since a revision", {
        fields: ["show"],
        since: null,
      });
    }
    // Every file is discovered (and every bad path refused) before any server is asked.
    const discovery = await discoverForCall(context.config, args.workspace, args.server, args.paths ?? [args.path as string]);
    const { targets } = discovery;
    const threshold = args.min_severity ? severityRank(args.min_severity) : Number.POSITIVE_INFINITY;
    const files = new Set(targets.map((target) => target.file.absolutePath)).size;
    const bytes = limitBytes(context.config, args.max_bytes);
    if (args.since !== undefined) {
      const answers = await diagnoseSince(context.config, context.sessions, discovery, {
        revision: args.since,
        serverName: args.server,
        batchSize: DEFAULT_BATCH_SIZE,
        signal: context.signal,
        onFileDone: (done, total) => context.onProgress?.(done, total),
        asCheck: false,
      });
      const result = splitMerged(context.config, answers, (severity) => severityRank(severity) <= threshold);
      const unchecked = notChecked(answers.current.files);
      const items = (args.show === "resolved" ? result.resolved : result.introduced).map((placed) => placed.diagnostic);
      const counts = { since: answers.since, introduced: result.introduced.length, resolved: result.resolved.length, unchanged: result.unchanged.length };
      return boundedPage(items, args, bytes, (page, envelope) => ({
        structured: { items: page, ...envelope, files, ...counts, ...unchecked },
        text: renderText(page, envelope, files, unchecked, { ...counts, show: args.show ?? "introduced" }),
      }));
    }
    const answers = await diagnoseTargets(context.config, context.sessions, targets, {
      batchSize: DEFAULT_BATCH_SIZE,
      close: false,
      signal: context.signal,
      onFileDone: (done, total) => context.onProgress?.(done, total),
    });
    // A file claimed by two servers (a type checker and a linter) is one target per server; an
    // identical finding from both appears once (CONTRACT §4, "Several servers for one file").
    const merged = mergeServerDiagnostics(answers.map((answer) => answer.diagnostics));
    const items = merged.filter((item) => severityRank(item.severity) <= threshold);
    const unchecked = notChecked(answers);
    return boundedPage(items, args, bytes, (page, envelope) => ({
      structured: { items: page, ...envelope, files, ...unchecked },
      text: renderText(page, envelope, files, unchecked),
    }));
  },
});

/** The files a server did not check, in path order, as the result's `not_checked` (left out when none). */
function notChecked(answers: readonly FileDiagnostics[]): { not_checked?: string[] } {
  const files = answers
    .flatMap((answer) => (answer.notChecked === undefined ? [] : [{ path: answer.file.path, server: answer.server.name, reason: answer.notChecked }]))
    .sort((a, b) => compareStrings(a.path, b.path) || compareStrings(a.server, b.server));
  return files.length === 0 ? {} : { not_checked: files.map((file) => `${file.path} (${file.server}): ${file.reason}`) };
}

function renderText(
  page: BridgeDiagnostic[],
  envelope: { total: number; returned: number; offset: number },
  files: number,
  unchecked: { not_checked?: string[] },
  since?: { since: { revision: string; commit: string }; introduced: number; resolved: number; unchanged: number; show: string },
): string {
  const what = since === undefined ? "diagnostics" : `${since.show} diagnostics`;
  const header =
    `${envelope.returned} of ${envelope.total} ${what} (offset ${envelope.offset}) in ${files} ${files === 1 ? "file" : "files"}` +
    (since === undefined
      ? ""
      : `; since ${since.since.revision} (${since.since.commit.slice(0, 12)}): ${since.introduced} introduced, ${since.resolved} resolved, ${since.unchanged} unchanged`);
  const lines = page.map((d) => {
    const tag = [d.source, d.code].filter((part) => part !== null).join(" ");
    return `${d.path}:${d.range.start.line}:${d.range.start.column}: ${d.severity}: ${d.message}${tag ? ` [${tag}]` : ""}`;
  });
  const notes = (unchecked.not_checked ?? []).map((file) => `not checked: ${file}`);
  return [header, ...lines, ...notes].join("\n");
}
