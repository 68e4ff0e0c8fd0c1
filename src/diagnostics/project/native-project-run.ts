import type { Deadline } from "../../contract/deadline.js";
import { OwnProjectPulls } from "./own-project-pulls.js";
import type { LspClient } from "../../lsp/lsp-client.js";
import type { FileDiagnostics } from "../file-diagnostics.js";
import { runPool } from "../../calls/run-pool.js";
import { answerFromProject } from "./project-answer.js";
import { refreshFromDisk } from "../../calls/watched-files/refresh-from-disk.js";
import { projectStateOf } from "../../calls/watched-files/project-state.js";
import type { ProjectRunOptions, RunItem } from "./tsserver-project-run.js";

/**
 * Diagnostics of a session's files from a server whose pulls are complete on their own
 * (its adapter's `answersManyFiles`: TypeScript 7's native server), none of them opened: the disk is
 * looked at and every change told to the server first (`refreshFromDisk`), then each file is
 * pulled closed — the server answers from the program of its project (loading it if need be), or
 * of the inferred project an editor would give it, exactly as if it were opened. Answers are kept
 * until a change on disk can reach them (`applyDiskChanges`). Every item is answered.
 */
export async function diagnoseFromNativeProject(
  sessionClient: LspClient,
  items: readonly RunItem[],
  texts: ReadonlyMap<string, string>,
  results: FileDiagnostics[],
  options: ProjectRunOptions,
  startDeadline: Deadline,
): Promise<void> {
  const [first] = items;
  if (!first) return;
  const signal = options.failure.signal;
  // A preview looked at the disk just before it changed what the server sees.
  const { client, state, changed } = options.overlay
    ? { client: sessionClient, state: projectStateOf(sessionClient), changed: new Set<string>() }
    : await refreshFromDisk(options.sessions, first.target, sessionClient, true, { deadline: startDeadline, signal });
  const pulls = new OwnProjectPulls(client, first.target.workspace.root, {
    config: options.config,
    sessions: options.sessions,
    ...(options.overlay === undefined ? {} : { overlay: options.overlay }),
  });
  try {
    await runPool([...items], options.inFlight, options.failure, (item) =>
      options.eachFile(item, async (context) => {
        const read = changed.has(item.target.file.absolutePath) ? null : texts;
        return (results[item.index] = await answerFromProject(client, state, item.target, context, read, (_file, requestOptions) =>
          pulls.pull(item.target, requestOptions),
        ));
      }),
    );
  } finally {
    await pulls.end();
  }
}
