import {
  PrepareRenameRequest,
  RenameRequest,
  type CreateFile,
  type DeleteFile,
  type Position,
  type RenameFile,
  type SnippetTextEdit,
  type TextEdit,
  type WorkspaceEdit,
} from "vscode-languageserver-protocol";
import { BridgeError } from "../../contract/errors.js";
import type { LspClient, RequestOptions } from "../lsp-client.js";
import { requireCapability } from "./capability.js";

/** Capability and method of `textDocument/rename`, for gating and errors. */
export const RENAME_FEATURE = { capability: "renameProvider", method: RenameRequest.method } as const;

/** A file operation of a workspace edit, as URIs. `newUri` is set for a rename only. */
interface FileOperation {
  readonly kind: "create" | "rename" | "delete";
  readonly uri: string;
  readonly newUri: string | null;
}

/** A workspace edit flattened: text edits per document URI, and the file operations in order. */
interface RenameEdits {
  readonly edits: ReadonlyMap<string, readonly TextEdit[]>;
  readonly fileOperations: readonly FileOperation[];
}

/**
 * Computes a rename without applying anything: `prepareRename` first when the server offers it
 * (a position that cannot be renamed is `InvalidArguments` with the server's reason in
 * `details.reason`), then `textDocument/rename`. Both `changes` and `documentChanges` are read.
 * `NotSupported` without `renameProvider`.
 */
export async function requestRename(client: LspClient, uri: string, position: Position, newName: string, options: RequestOptions): Promise<RenameEdits> {
  requireCapability(client, "renameProvider", RenameRequest.method);
  const provider = client.capabilities.renameProvider;
  if (typeof provider === "object" && provider.prepareProvider) await prepare(client, uri, position, options);
  const edit = await client.request(RenameRequest.type, { textDocument: { uri }, position, newName }, options).catch((error: unknown) => {
    throw cannotRename(error) ?? error;
  });
  return flatten(edit);
}

async function prepare(client: LspClient, uri: string, position: Position, options: RequestOptions): Promise<void> {
  const answer = await client.request(PrepareRenameRequest.type, { textDocument: { uri }, position }, options).catch((error: unknown) => {
    throw cannotRename(error) ?? error;
  });
  if (answer === null) throw refused("the server says nothing at this position can be renamed");
}

// A server refuses a rename by answering with an error (typescript-language-server says "You
// cannot rename this element."): that is a bad position, not a crash.
function cannotRename(error: unknown): BridgeError | null {
  if (!(error instanceof BridgeError) || error.code !== "ServerCrashed") return null;
  const message = error.details.lsp_message;
  if (typeof message !== "string") return null;
  return refused(message.replace(/^Request textDocument\/\w+ failed with message: /, ""));
}

function refused(reason: string): BridgeError {
  return new BridgeError("InvalidArguments", `this position cannot be renamed: ${reason}`, { fields: ["line", "column"], reason });
}

function flatten(edit: WorkspaceEdit | null): RenameEdits {
  const edits = new Map<string, TextEdit[]>();
  const fileOperations: FileOperation[] = [];
  const add = (uri: string, list: readonly TextEdit[]): void => {
    edits.set(uri, [...(edits.get(uri) ?? []), ...list]);
  };
  for (const [uri, list] of Object.entries(edit?.changes ?? {})) add(uri, list);
  for (const change of edit?.documentChanges ?? []) {
    if ("textDocument" in change) add(change.textDocument.uri, change.edits.map(plainEdit));
    else fileOperations.push(fileOperation(change));
  }
  return { edits, fileOperations };
}

// A snippet edit (LSP 3.18) is shown with its snippet text; the bridge declares no snippet support.
function plainEdit(edit: TextEdit | SnippetTextEdit): TextEdit {
  return "snippet" in edit ? { range: edit.range, newText: edit.snippet.value } : edit;
}

function fileOperation(change: CreateFile | RenameFile | DeleteFile): FileOperation {
  if (change.kind === "rename") return { kind: "rename", uri: change.oldUri, newUri: change.newUri };
  return { kind: change.kind, uri: change.uri, newUri: null };
}
