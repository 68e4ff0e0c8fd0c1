import { z } from "zod";
import { mergeServerDiagnostics, type BridgeDiagnostic } from "../contract/diagnostic-order.js";
import { severityRank } from "../contract/names.js";
import { boundedPage, limitBytes } from "./bounded-answer.js";
import {
  limitArg,
  maxBytesArg,
  offsetArg,
  pageFields,
  pathArg,
  RangeSchema,
  serverArg,
  SeveritySchema,
  workspaceArg,
} from "./common-schemas.js";
import { DEFAULT_BATCH_SIZE, diagnoseTargets } from "../pipeline/diagnose-targets.js";
import { discoverInWorkspace, type DiagnosticsTarget } from "../pipeline/discover-targets.js";
import type { ResolvedWorkspace } from "../config/types.js";
import { pickWorkspace } from "../sessions/resolve-target.js";
import { defineTool, type ToolContext } from "./tool-definition.js";

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
    path: pathArg.optional().describe('A file, or a folder (every claimed file under it; "." is the workspace root), relative to the workspace root or absolute inside it.'),
    paths: z.array(pathArg).min(1).max(1000).optional().describe("Several files and folders at once; results are merged in canonical order."),
    min_severity: SeveritySchema.optional().describe("Leave out diagnostics less severe than this."),
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
  outputSchema: z.object({ items: z.array(DiagnosticItemSchema), ...pageFields, files: z.number().int() }),
  handler: async (args, context) => {
    const targets = await discover(args.paths ?? [args.path as string], args, context);
    // Every file is discovered (and every bad path refused) before any server is asked.
    const answers = await diagnoseTargets(context.config, context.sessions, targets, {
      batchSize: DEFAULT_BATCH_SIZE,
      close: false,
      signal: context.signal,
      onFileDone: (done, total) => context.onProgress?.(done, total),
    });
    const threshold = args.min_severity ? severityRank(args.min_severity) : Number.POSITIVE_INFINITY;
    // A file claimed by two servers (a type checker and a linter) is one target per server; an
    // identical finding from both appears once (CONTRACT §4, "Several servers for one file").
    const merged = mergeServerDiagnostics(answers.map((answer) => answer.diagnostics));
    const items = merged.filter((item) => severityRank(item.severity) <= threshold);
    const files = new Set(targets.map((target) => target.file.absolutePath)).size;
    return boundedPage(items, args, limitBytes(context.config, args.max_bytes), (page, envelope) => ({
      structured: { items: page, ...envelope, files },
      text: renderText(page, envelope, files),
    }));
  },
});

/**
 * Each path in its workspace (named, the only one, or the one holding an absolute path), one
 * discovery per workspace in configuration order, so each session's files are neighbours and
 * each file appears once.
 */
async function discover(
  paths: readonly string[],
  args: { workspace?: string | undefined; server?: string | undefined },
  context: ToolContext,
): Promise<DiagnosticsTarget[]> {
  const byWorkspace = new Map<ResolvedWorkspace, string[]>();
  for (const path of paths) {
    const workspace = pickWorkspace(context.config, args.workspace, path);
    byWorkspace.set(workspace, [...(byWorkspace.get(workspace) ?? []), path]);
  }
  const found: DiagnosticsTarget[] = [];
  for (const workspace of context.config.workspaces) {
    const given = byWorkspace.get(workspace);
    if (given) found.push(...(await discoverInWorkspace(context.config, workspace, args.server, given)));
  }
  return found;
}

function renderText(page: BridgeDiagnostic[], envelope: { total: number; returned: number; offset: number }, files: number): string {
  const header = `${envelope.returned} of ${envelope.total} diagnostics (offset ${envelope.offset}) in ${files} ${files === 1 ? "file" : "files"}`;
  const lines = page.map((d) => {
    const tag = [d.source, d.code].filter((part) => part !== null).join(" ");
    return `${d.path}:${d.range.start.line}:${d.range.start.column}: ${d.severity}: ${d.message}${tag ? ` [${tag}]` : ""}`;
  });
  return [header, ...lines].join("\n");
}
