import { z } from "zod";
import { mergeServerDiagnostics, type BridgeDiagnostic } from "../contract/diagnostic-order.js";
import { severityRank } from "../contract/names.js";
import { boundedPage, limitBytes } from "./bounded-answer.js";
import { limitArg, maxBytesArg, offsetArg, pageFields, pathArg, RangeSchema, serverArg, SeveritySchema, workspaceArg } from "./common-schemas.js";
import { DEFAULT_BATCH_SIZE } from "../diagnostics/run/batch-size.js";
import { diagnoseTargets } from "../diagnostics/run/diagnose-targets.js";
import { discoverForCall } from "../targets/discover-targets.js";
import type { FileDiagnostics } from "../diagnostics/run/file-diagnostics.js";
import { BridgeError } from "../contract/errors.js";
import { diagnoseSince } from "../diagnostics/since/diagnose-since.js";
import { notCheckedFiles } from "../diagnostics/findings/not-checked-files.js";
import { splitMerged, splitPreview } from "../diagnostics/findings/place-findings.js";
import { resolveChanges } from "../diagnostics/changes/resolve-changes.js";
import { diagnoseChanges, type NotPreviewed } from "../diagnostics/changes/diagnose-changes.js";
import { pickWorkspace, resolveFile } from "../targets/resolve-target.js";
import { defineTool } from "./tool-definition.js";
import type { CallContext } from "../targets/call-context.js";
import type { ChangesArg } from "../diagnostics/changes/resolve-changes.js";

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
    path: pathArg.optional().describe('A file or folder ("." is the workspace root), relative to the root or absolute inside it.'),
    paths: z.array(pathArg).min(1).max(1000).optional().describe("Several files and folders at once."),
    min_severity: SeveritySchema.optional().describe("Leave out less severe ones."),
    since: z.string().min(1).max(1000).optional().describe('After writing: a git revision ("HEAD", a commit); only what changed since.'),
    changes: z
      .union([
        // Plain objects: a misspelt key leaves a required one missing, refused all the same.
        z.array(z.object({ path: pathArg, text: z.string().nullable() })),
        z.object({ patch: z.string() }),
      ])
      .optional()
      .describe("Before writing: what an edit would break: [{path, text}] (null deletes) or {patch} (git diff)."),
    show: z.enum(["introduced", "resolved"]).optional().describe("With since/changes: findings `introduced` (default) or `resolved`."),
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
  description: "Checker and linter diagnostics of files or folders once each server has settled (never partial); `files` counts files checked.",
  inputSchema,
  outputSchema: z.object({
    items: z.array(DiagnosticItemSchema),
    ...pageFields,
    files: z.number().int(),
    since: z.object({ revision: z.string(), commit: z.string() }).optional(),
    changes: z.object({ files: z.number().int() }).optional(),
    introduced: z.number().int().optional(),
    resolved: z.number().int().optional(),
    unchanged: z.number().int().optional(),
    // Files a server did not check at all (gopls: build constraints leave them out), never findings:
    // "PATH (SERVER): why", as plain strings, which the tools/list budget has room for.
    not_checked: z.array(z.string()).optional(),
    // Sources that could not see the changes (source null: none of the server's); their findings are in no count.
    not_previewed: z.array(z.object({ server: z.string(), source: z.string().nullable() })).optional(),
  }),
  handler: async (args, context) => {
    if (args.show !== undefined && args.since === undefined && args.changes === undefined) {
      throw new BridgeError("InvalidArguments", "`show` needs `since` or `changes`: it chooses between the findings introduced and resolved", {
        fields: ["show"],
        since: null,
      });
    }
    if (args.changes !== undefined && args.since !== undefined) {
      throw new BridgeError("InvalidArguments", "give `changes` (before writing) or `since` (after), not both", { fields: ["changes", "since"] });
    }
    if (args.changes !== undefined) return preview(args, context, args.changes);
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
        workingTree: "keep-open",
      });
      const result = splitMerged(context.config, answers, (severity) => severityRank(severity) <= threshold);
      const unchecked = notChecked(answers.current.files);
      const items = (args.show === "resolved" ? result.resolved : result.introduced).map((placed) => placed.diagnostic);
      const counts = { since: answers.since, introduced: result.introduced.length, resolved: result.resolved.length, unchanged: result.unchanged.length };
      return boundedPage(items, args, bytes, (page, envelope) => ({
        structured: { items: page, ...envelope, files, ...counts, ...unchecked },
        text: renderText(page, envelope, files, unchecked, {
          ...counts,
          show: args.show ?? "introduced",
          against: `since ${answers.since.revision} (${answers.since.commit.slice(0, 12)})`,
        }),
      }));
    }
    const answers = await diagnoseTargets(context.config, context.sessions, targets, {
      batchSize: DEFAULT_BATCH_SIZE,
      documents: "keep",
      signal: context.signal,
      onFileDone: (done, total) => context.onProgress?.(done, total),
      listings: discovery.listings,
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

/**
 * `diagnostics` with `changes` (CONTRACT §4.4): the changes resolved (every bad one refused) and
 * the scope discovered before any server is told anything; a path asked for that only the
 * changes create is checked with them. Answered as `since` is, with `changes: { files }`.
 */
async function preview(args: z.infer<typeof inputSchema>, context: CallContext, changesArg: ChangesArg) {
  const { config } = context;
  const changes = await resolveChanges(config, args.workspace, changesArg);
  const createdPaths = new Set(changes.flatMap((change) => (change.before === null ? [change.file.absolutePath] : [])));
  const given = args.paths ?? [args.path as string];
  const onDisk: string[] = [];
  const created: string[] = [];
  for (const path of given) {
    const absolute = resolveFile(pickWorkspace(config, args.workspace, path), path).absolutePath;
    if (createdPaths.has(absolute)) created.push(absolute);
    else onDisk.push(path);
  }
  const discovery = onDisk.length === 0 ? { targets: [], scope: [], listings: new Map() } : await discoverForCall(config, args.workspace, args.server, onDisk);
  const answers = await diagnoseChanges(config, context.sessions, discovery, changes, created, {
    serverName: args.server,
    batchSize: DEFAULT_BATCH_SIZE,
    signal: context.signal,
    onFileDone: (done, total) => context.onProgress?.(done, total),
  });
  const threshold = args.min_severity ? severityRank(args.min_severity) : Number.POSITIVE_INFINITY;
  const blind = (finding: { server: string; diagnostic: { source: string | null } }) =>
    answers.notPreviewed.some(
      (entry: NotPreviewed) => entry.server === finding.server && (entry.source === null || entry.source === finding.diagnostic.source),
    );
  const result = splitPreview(
    config,
    answers.before,
    answers.after,
    (severity) => severityRank(severity) <= threshold,
    (finding) => !blind(finding),
  );
  // As `since` counts them: the files checked as they would be (a deleted file is none).
  const files = new Set(answers.after.map((answer) => answer.file.absolutePath)).size;
  const unchecked = notChecked(answers.after);
  const items = (args.show === "resolved" ? result.resolved : result.introduced).map((placed) => placed.diagnostic);
  const counts = {
    changes: { files: changes.length },
    introduced: result.introduced.length,
    resolved: result.resolved.length,
    unchanged: result.unchanged.length,
  };
  const notPreviewed = answers.notPreviewed.length === 0 ? {} : { not_previewed: [...answers.notPreviewed] };
  return boundedPage(items, args, limitBytes(config, args.max_bytes), (page, envelope) => ({
    structured: { items: page, ...envelope, files, ...counts, ...unchecked, ...notPreviewed },
    text: renderText(page, envelope, files, unchecked, {
      ...counts,
      show: args.show ?? "introduced",
      against: `with changes to ${changes.length} ${changes.length === 1 ? "file" : "files"}`,
      notPreviewed: answers.notPreviewed,
    }),
  }));
}

/** The files a server did not check, as the result's `not_checked` (left out when none). */
function notChecked(answers: readonly FileDiagnostics[]): { not_checked?: string[] } {
  const files = notCheckedFiles(answers);
  return files.length === 0 ? {} : { not_checked: files.map((file) => `${file.path} (${file.server}): ${file.reason}`) };
}

function renderText(
  page: BridgeDiagnostic[],
  envelope: { total: number; returned: number; offset: number },
  files: number,
  unchecked: { not_checked?: string[] },
  since?: { introduced: number; resolved: number; unchanged: number; show: string; against: string; notPreviewed?: readonly NotPreviewed[] },
): string {
  const what = since === undefined ? "diagnostics" : `${since.show} diagnostics`;
  const header =
    `${envelope.returned} of ${envelope.total} ${what} (offset ${envelope.offset}) in ${files} ${files === 1 ? "file" : "files"}` +
    (since === undefined ? "" : `; ${since.against}: ${since.introduced} introduced, ${since.resolved} resolved, ${since.unchanged} unchanged`);
  const lines = page.map((d) => {
    const tag = [d.source, d.code].filter((part) => part !== null).join(" ");
    return `${d.path}:${d.range.start.line}:${d.range.start.column}: ${d.severity}: ${d.message}${tag ? ` [${tag}]` : ""}`;
  });
  const notes = [
    ...(unchecked.not_checked ?? []).map((file) => `not checked: ${file}`),
    ...(since?.notPreviewed ?? []).map(
      (entry) => `not previewed (its findings are in no count): ${entry.server}${entry.source === null ? "" : ` ${entry.source}`}`,
    ),
  ];
  return [header, ...lines, ...notes].join("\n");
}
