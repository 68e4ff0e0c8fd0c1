import { pathToFileURL } from "node:url";
import { LineIndex } from "../contract/positions.js";
import type { OpenDocument } from "../lsp/document-sync.js";
import type { LspClient } from "../lsp/lsp-client.js";
import type { FileTarget } from "./resolve-target.js";

/** A file as the server now has it, with the index that converts its positions. */
export interface SyncedDocument {
  readonly document: OpenDocument;
  readonly lines: LineIndex;
}

const indexes = new WeakMap<OpenDocument, LineIndex>();

/** Makes the server's copy of `file` equal to `text` (read from disk at call time). */
export async function syncText(client: LspClient, file: FileTarget, languageId: string, text: string): Promise<SyncedDocument> {
  const document = await client.documents.sync(pathToFileURL(file.absolutePath).href, languageId, text);
  return { document, lines: linesOf(document) };
}

/** The line index of an open document's text, built once per version (each version is a new object). */
export function linesOf(document: OpenDocument): LineIndex {
  let lines = indexes.get(document);
  if (!lines) {
    lines = new LineIndex(document.text);
    indexes.set(document, lines);
  }
  return lines;
}
