import { z } from "zod";
import { sortDiagnostics, type BridgeDiagnostic } from "../contract/diagnostic-order.js";
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
import { claimedFileDiagnostics } from "../pipeline/claimed-file-diagnostics.js";
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
    path: pathArg.optional(),
    paths: z.array(pathArg).min(1).max(1000).optional().describe("Several files at once; results are merged in canonical order."),
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
 * `diagnostics`: each file is synced from disk and answered only once its server has settled for
 * that version (see `fileDiagnostics`, shared with `lspmcp check`), so a clean answer always means
 * clean. Without `server`, every server claiming a file answers for it (`claimedFileDiagnostics`).
 */
export const diagnosticsTool = defineTool({
  name: "diagnostics",
  title: "Diagnostics",
  description:
    "Compiler/linter diagnostics for one or more files, read from disk now, after the language server has settled. Canonically ordered, paged with offset/limit.",
  inputSchema,
  outputSchema: z.object({ items: z.array(DiagnosticItemSchema), ...pageFields }),
  handler: async (args, context) => {
    const paths = args.paths ?? [args.path as string];
    // Files are answered concurrently; the first failure (in argument order) fails the call.
    const settled = await Promise.allSettled(paths.map(async (path) => claimedFileDiagnostics(context, { ...args, path })));
    const failure = settled.find((result) => result.status === "rejected");
    if (failure) throw failure.reason;
    const all = settled.flatMap((result) => (result.status === "fulfilled" ? result.value : []));
    const threshold = args.min_severity ? severityRank(args.min_severity) : Number.POSITIVE_INFINITY;
    const items = sortDiagnostics(dedupe(all)).filter((item) => severityRank(item.severity) <= threshold);
    return boundedPage(items, args, limitBytes(context.config, args.max_bytes), (page, envelope) => ({
      structured: { items: page, ...envelope },
      text: renderText(page, envelope),
    }));
  },
});

/** The same file named twice in `paths` must not double its findings. */
function dedupe(items: BridgeDiagnostic[]): BridgeDiagnostic[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = JSON.stringify(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function renderText(page: BridgeDiagnostic[], envelope: { total: number; returned: number; offset: number }): string {
  const header = `${envelope.returned} of ${envelope.total} diagnostics (offset ${envelope.offset})`;
  const lines = page.map((d) => {
    const tag = [d.source, d.code].filter((part) => part !== null).join(" ");
    return `${d.path}:${d.range.start.line}:${d.range.start.column}: ${d.severity}: ${d.message}${tag ? ` [${tag}]` : ""}`;
  });
  return [header, ...lines].join("\n");
}
