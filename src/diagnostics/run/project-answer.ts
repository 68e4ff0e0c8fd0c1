import { pathToFileURL } from "node:url";
import { LineIndex } from "../../contract/positions.js";
import type { LspClient } from "../../lsp/lsp-client.js";
import type { CallContext } from "../../targets/call-context.js";
import { convertDiagnostics } from "./convert-diagnostic.js";
import type { ResolvedTarget } from "../../targets/resolve-target.js";
import type { FileDiagnostics } from "./file-diagnostics.js";
import { readSourceFile } from "../../files/read-source-file.js";
import type { ProjectState } from "../../disk-sync/project-state.js";
import type { ProjectAnswer } from "../../lsp/project-model.js";
import type { RequestOptions } from "../../lsp/request-options.js";

/** Asks the server's program for one file's diagnostics (absolute path, and its URI). */
type AskFileDiagnostics = (file: string, uri: string, options: RequestOptions) => Promise<ProjectAnswer>;

/**
 * One file's answer from the server's project: kept from before when no change reached it, else
 * asked now. The file is read when its answer is converted (`changed`: the run's look at the disk
 * found it changed). A server with complete pulls also keeps the converted answer with its text,
 * which a later call gives again as long as the disk look finds the file unchanged and its answer
 * is still the kept one (and from whose text the adapter's change queries read what the file
 * exported). `since`: the generation of the program the run's pulls may have answered from (their
 * `place` can answer files ahead of time); an answer is kept only when no change came after it.
 */
export async function answerFromProject(
  client: LspClient,
  state: ProjectState,
  target: ResolvedTarget,
  context: CallContext,
  changed: boolean,
  ask: AskFileDiagnostics,
  since: number = state.generation,
): Promise<FileDiagnostics> {
  const given = keptAnswer(client, state, target, changed);
  if (given) return given;
  const { file } = target;
  const kept = state.answers.get(file.absolutePath);
  const rendered = state.rendered.get(file.absolutePath);
  const uri = rendered?.uri ?? pathToFileURL(file.absolutePath).href;
  const open = client.documents.get(uri);
  // The server answers from the open document's text, else from the disk it was just told about.
  const text = open?.text ?? (await readSourceFile(file.absolutePath, file.path));
  let answer = kept;
  if (!answer) {
    const generation = Math.min(since, state.generation);
    answer = await ask(file.absolutePath, uri, { deadline: context.deadline, signal: context.signal });
    // An answer that raced with a change told to the server may describe either program: not kept.
    if (state.generation === generation) state.answers.set(file.absolutePath, answer);
  }
  const lines = new LineIndex(text);
  const diagnostics = convertDiagnostics(file.path, answer.diagnostics, null, lines, client.positionEncoding);
  if (client.adapter.projectModel?.answersUnopened && !open) state.rendered.set(file.absolutePath, { answer, uri, text, diagnostics });
  return { workspace: target.workspace, server: target.server, file, text, diagnostics, ...projectOf(answer) };
}

/**
 * The answer given again as it was last given, when the bridge kept it and nothing since can have
 * changed it (the run's look found the file unchanged, no document of it is open); else undefined.
 * Synchronous: nothing is asked or read.
 */
export function keptAnswer(client: LspClient, state: ProjectState, target: ResolvedTarget, changed: boolean): FileDiagnostics | undefined {
  const { file } = target;
  const kept = state.answers.get(file.absolutePath);
  const rendered = state.rendered.get(file.absolutePath);
  if (!kept || rendered?.answer !== kept || changed || client.documents.get(rendered.uri)) return undefined;
  return { workspace: target.workspace, server: target.server, file, text: rendered.text, diagnostics: rendered.diagnostics, ...projectOf(kept) };
}

function projectOf(answer: ProjectAnswer): { project?: string | null } {
  return answer.project === undefined ? {} : { project: answer.project === "" ? null : answer.project };
}
