import { pathToFileURL } from "node:url";
import { FileChangeType, type FileEvent } from "vscode-languageserver-protocol";
import type { ChangeQueries } from "../lsp/server-adapter.js";
import type { LspClient, RequestOptions } from "../lsp/lsp-client.js";
import { readSourceFile } from "../files/read-source-file.js";
import type { DiskChange } from "./disk-view.js";
import type { ProjectState } from "./project-state.js";

/** How many files' importers one change may ask for before every kept answer is dropped instead. */
const MAX_IMPORTER_QUESTIONS = 32;

/**
 * Tells the server what changed on disk and drops the cached answers a change can reach.
 *
 * A change of a source file that is a module reaches the file itself; when what other files see
 * of it (its declaration shape, the adapter's `ChangeQueries`, asked of the server's program
 * before it hears of the change and after) changed too, it also reaches every file that imports
 * it, transitively, as asked after the change. That is a superset of the compiler's own rule,
 * which goes past the direct importers only through files whose own declarations changed.
 * Anything else — a created or deleted file (module resolution may change), a config or JSON
 * file, a file whose shape cannot be told (a script, a global augmentation, overloads...), a file
 * whose document was synced since the answers were made (the server no longer has its old text),
 * a server that cannot say — drops every cached answer. So a kept answer is one the server would give again.
 */
export async function applyDiskChanges(client: LspClient, state: ProjectState, changes: readonly DiskChange[], options: RequestOptions): Promise<void> {
  if (changes.length === 0) return;
  const queries = client.adapter.changeQueries?.(state, options) ?? null;
  const before = state.answers.size === 0 || queries === null ? null : await shapesBefore(client, state, queries, changes);
  state.generation++;
  await client.notifyWatchedFiles(changes.map(toFileEvent));
  // A server does not watch what it holds open: an open document follows the disk by a sync.
  for (const change of changes) await resyncOpenDocument(client, change);
  if (state.answers.size === 0) {
    for (const change of changes) state.notes.delete(change.path);
    return;
  }
  const reached = before === null || queries === null ? null : await reachAfter(queries, before);
  if (reached === null) {
    state.answers.clear();
    state.notes.clear();
    return;
  }
  for (const path of reached) state.answers.delete(path);
}

/**
 * Each changed file's shape in the server's program before the change (asked before the server
 * hears of it), or null for "every file": a file created or deleted, one without a shape, one
 * whose document was synced since the answers were made.
 */
export async function shapesBefore(
  client: LspClient,
  state: ProjectState,
  queries: ChangeQueries,
  changes: readonly DiskChange[],
): Promise<Map<string, string> | null> {
  const before = new Map<string, string>();
  for (const change of changes) {
    if (change.kind !== "changed") return null;
    if (client.documents.lastSentFor(pathToFileURL(change.path).href) > state.sentAtLook) return null;
    try {
      const shape = await queries.shapeBefore(change.path);
      if (shape === null) return null;
      before.set(change.path, shape);
    } catch {
      // No project holds it any more, or the server could not say: nothing is known to be unreached.
      return null;
    }
  }
  return before;
}

/**
 * The files the changes reach in the server's program after them (the changed files themselves
 * among them), or null for "every file"; `shown` gives what the server holds of a changed file
 * when that is not the disk's text (a preview's).
 */
export async function reachAfter(
  queries: ChangeQueries,
  before: ReadonlyMap<string, string>,
  shown: (path: string) => string | undefined = () => undefined,
): Promise<Set<string> | null> {
  try {
    const reached = new Set<string>();
    // Each question costs the server a look through the whole program: past a bound, asking
    // every file again costs less than finding out which ones to ask. Every file queued is asked
    // once, so a walk whose asked and waiting files already pass the bound stops before asking.
    // A changed file's importers are asked only when its shape changed (an edit that keeps it,
    // the common one, asks nothing more); after the change as before it, since its own text
    // cannot change which unchanged files import it.
    const asked = new Set<string>();
    const waiting = new Set<string>();
    const queue: string[] = [];
    const enqueue = (path: string): void => {
      if (asked.has(path) || waiting.has(path)) return;
      waiting.add(path);
      queue.push(path);
    };
    for (const [path, shape] of before) {
      reached.add(path);
      const after = await queries.shapeAfter(path, shown(path));
      if (after === null) return null;
      if (after !== shape) enqueue(path);
    }
    while (queue.length > 0) {
      if (asked.size + waiting.size > MAX_IMPORTER_QUESTIONS) return null;
      const path = queue.pop()!;
      waiting.delete(path);
      reached.add(path);
      if (asked.has(path)) continue;
      asked.add(path);
      for (const importer of await queries.importers(path)) enqueue(importer);
    }
    return reached;
  } catch {
    return null;
  }
}

async function resyncOpenDocument(client: LspClient, change: DiskChange): Promise<void> {
  const uri = pathToFileURL(change.path).href;
  const open = client.documents.get(uri);
  if (!open) return;
  const text = change.kind === "deleted" ? null : await readSourceFile(change.path, change.path).catch(() => null);
  if (text === null) await client.documents.close(uri);
  else await client.documents.sync(uri, open.languageId, text);
}

function toFileEvent(change: DiskChange): FileEvent {
  const type = change.kind === "created" ? FileChangeType.Created : change.kind === "deleted" ? FileChangeType.Deleted : FileChangeType.Changed;
  return { uri: pathToFileURL(change.path).href, type };
}
