import { pathToFileURL } from "node:url";
import type { ResolvedConfig } from "../../config/types.js";
import type { SessionRegistry } from "../../sessions/session-registry.js";
import { Deadline } from "../../contract/deadline.js";
import { requestTsserverFileDiagnostics, supportsTsserverDiagnostics } from "../../lsp/features/tsserver-diagnostics.js";
import { isConfiguredProject, requestTsserverProject } from "../../lsp/features/tsserver-project.js";
import type { LspClient } from "../../lsp/lsp-client.js";
import { CallScope } from "../../contract/call-scope.js";
import type { CallContext } from "../../calls/call-context.js";
import type { ResolvedTarget } from "../../calls/resolve-target.js";
import type { FileDiagnostics } from "../file-diagnostics.js";
import { openTarget, type OpenTarget } from "../../calls/open-target.js";
import { runPool, type FirstFailure } from "../../calls/run-pool.js";
import { nearestConfig } from "./nearest-config.js";
import { projectStateOf, type ProjectState } from "../../calls/watched-files/project-state.js";
import { answerFromProject } from "./project-answer.js";
import { refreshFromDisk } from "../../calls/watched-files/refresh-from-disk.js";

/** A target with its place in the run. */
export interface RunItem {
  readonly target: ResolvedTarget;
  readonly index: number;
}

export interface ProjectRunOptions {
  readonly config: ResolvedConfig;
  readonly sessions: SessionRegistry;
  /** Files asked at once. */
  readonly inFlight: number;
  /** Close the documents the run opened once it is done (`check`). */
  readonly close: boolean;
  readonly failure: FirstFailure;
  /** Wraps the work of one file: its deadline, progress and the naming of its failure. */
  /** Once an opener (the document that loads a project) is open (`check` counts the documents open at once). */
  readonly onSynced?: ((target: OpenTarget) => void) | undefined;
  /** A preview of changes (see `CallContext.overlay`): the disk is not looked at again. */
  readonly overlay?: ReadonlyMap<string, string> | undefined;
  readonly eachFile: (item: RunItem, work: (context: CallContext) => Promise<FileDiagnostics>) => Promise<void>;
}

/**
 * Diagnostics of a session's files from its server's project, without opening each file: for
 * typescript-language-server whose files the bridge watches (its adapter says so).
 *
 * The disk is looked at first and every change told to the server (`refreshFromDisk`), so the
 * server's program is the disk's. Then one file of the run is opened (its opener: tsserver loads
 * the file's configured project, as it would for an editor) and the project's file list read;
 * every file of the run in that project, whose nearest tsconfig is the project's (so it would be
 * the file's project if it were opened), is answered from the project by tsserver's sync
 * diagnostics requests on the closed file: the same three requests, the same program, so the
 * same set as file by file (tests/differential/project-vs-file.test.ts). Files of other projects
 * get openers of their own; a file tsserver would give an inferred project is left to the
 * file-by-file path (returned). Answers are kept for the session until a change on disk can
 * reach them (`applyDiskChanges`), so after an edit only the files it reaches are asked again.
 * Returns the items it did not answer; answers go to `results`.
 */
export async function diagnoseFromProject(
  sessionClient: LspClient,
  items: readonly RunItem[],
  texts: ReadonlyMap<string, string>,
  results: FileDiagnostics[],
  options: ProjectRunOptions,
  startDeadline: Deadline,
): Promise<RunItem[]> {
  const [first] = items;
  if (!first || !sessionClient.bridgeWatchesFiles) return [...items];
  const signal = options.failure.signal;
  const { client, state, changed } = options.overlay
    ? { client: sessionClient, state: projectStateOf(sessionClient), changed: new Set<string>() }
    : await refreshFromDisk(options.sessions, first.target, sessionClient, true, { deadline: startDeadline, signal });
  if (!supportsTsserverDiagnostics(client)) return [...items];
  const scope = new CallScope();
  try {
    const { fromProject, fileByFile } = await placeInProjects(client, state, items, options, scope);
    await runPool(fromProject, options.inFlight, options.failure, (item) =>
      options.eachFile(
        item,
        async (context) =>
          (results[item.index] = await answerFromProject(
            client,
            state,
            item.target,
            context,
            changed.has(item.target.file.absolutePath) ? null : texts,
            async (file, options) => ({ diagnostics: await requestTsserverFileDiagnostics(client, file, options) }),
          )),
      ),
    );
    return fileByFile;
  } finally {
    scope.close();
    if (options.close) {
      for (const item of items) {
        const uri = pathToFileURL(item.target.file.absolutePath).href;
        if (!client.isClosed && client.documents.get(uri)) await client.documents.close(uri).catch(() => {});
      }
    }
  }
}

/**
 * Openers in a row that brought no file but themselves into a project before the rest of the
 * run goes file by file (a layout the project path does not recognise, such as a solution-style
 * tsconfig, must not cost one sequential open per file).
 */
const MAX_FRUITLESS_OPENERS = 4;

/**
 * Splits the items into those a loaded configured project answers and the rest. A file with no
 * tsconfig or jsconfig above it gets an inferred project when opened, as do all such files: they
 * go file by file together.
 */
async function placeInProjects(
  client: LspClient,
  state: ProjectState,
  items: readonly RunItem[],
  options: ProjectRunOptions,
  scope: CallScope,
): Promise<{ fromProject: RunItem[]; fileByFile: RunItem[] }> {
  const configs = new Map<string, string | null>();
  const fromProject: RunItem[] = [];
  const fileByFile: RunItem[] = [];
  let remaining = [...items];
  let fruitless = 0;
  while (remaining.length > 0) {
    const opener = remaining[0]!;
    const root = opener.target.workspace.root;
    if (fruitless === MAX_FRUITLESS_OPENERS) {
      fileByFile.push(...remaining);
      break;
    }
    if (nearestConfig(opener.target.file.absolutePath, root, configs) === null) {
      const configless = (item: RunItem): boolean => nearestConfig(item.target.file.absolutePath, root, configs) === null;
      fileByFile.push(...remaining.filter(configless));
      remaining = remaining.filter((item) => !configless(item));
      continue;
    }
    const deadline = Deadline.in(options.config.bridge.request_timeout_ms);
    const context: CallContext = {
      config: options.config,
      sessions: options.sessions,
      deadline,
      signal: options.failure.signal,
      scope,
      ...(options.overlay === undefined ? {} : { overlay: options.overlay }),
    };
    const sentBefore = client.documents.sentCount;
    // Held open for the call (and left open after it, unless `close`): it keeps the project loaded.
    const opened = await openTarget(context, opener.target, { refreshed: true });
    if (client.documents.sentCount - sentBefore <= 1) state.sentAtLook = client.documents.sentCount;
    options.onSynced?.(opened);
    const project = await requestTsserverProject(client, opened.file.absolutePath, { deadline, signal: options.failure.signal });
    const programFiles = new Set(project.fileNames);
    const inProject = (item: RunItem): boolean =>
      isConfiguredProject(project) &&
      programFiles.has(item.target.file.absolutePath) &&
      nearestConfig(item.target.file.absolutePath, root, configs) === project.configFileName;
    if (!inProject(opener)) {
      fileByFile.push(opener);
      remaining = remaining.slice(1);
      fruitless++;
      continue;
    }
    const members = remaining.filter(inProject);
    fruitless = members.length > 1 ? 0 : fruitless + 1;
    fromProject.push(...members);
    remaining = remaining.filter((item) => !inProject(item));
  }
  return { fromProject, fileByFile };
}
