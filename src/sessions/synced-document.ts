import { pathToFileURL } from "node:url";
import { LineIndex } from "../contract/positions.js";
import type { OpenDocument } from "../lsp/document-sync.js";
import type { LspClient } from "../lsp/lsp-client.js";
import { readSourceFile } from "./read-source-file.js";
import type { FileTarget } from "./resolve-target.js";

/** A file as the server now has it, with the index that converts its positions. */
export interface SyncedDocument {
  readonly document: OpenDocument;
  readonly lines: LineIndex;
}

const indexes = new WeakMap<OpenDocument, LineIndex>();

/** Reads the file from disk now and makes the server's copy equal to it. */
export async function syncFromDisk(client: LspClient, file: FileTarget, languageId: string): Promise<SyncedDocument> {
  const text = await readSourceFile(file.absolutePath, file.path);
  const document = await client.documents.sync(pathToFileURL(file.absolutePath).href, languageId, text);
  let lines = indexes.get(document);
  if (!lines) {
    lines = new LineIndex(document.text);
    indexes.set(document, lines);
  }
  return { document, lines };
}
