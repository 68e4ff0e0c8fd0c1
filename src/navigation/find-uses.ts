import { DefinitionRequest } from "vscode-languageserver-protocol";
import { hasCapability } from "../lsp/features/capability.js";
import { requestDefinition } from "../lsp/features/definition.js";
import { awaitNavigationReady } from "../lsp/features/navigation-readiness.js";
import { requestSemanticTokens } from "../lsp/features/semantic-tokens.js";
import type { RequestOptions } from "../lsp/lsp-client.js";
import { groupBySameDefinition, tokenOccurrences, wordOccurrences, type Occurrence } from "./name-occurrences.js";
import type { OpenTarget } from "../targets/open-target.js";

// Definition requests in flight at once: enough to keep a server busy, few enough that a name
// used hundreds of times does not flood its queue ahead of other calls.
const DEFINITIONS_IN_FLIGHT = 16;

/**
 * The things `name` names where the file's code uses it (CONTRACT §4.1, a name the file uses):
 * the first use of each, in document order; on `line` only, when given. Empty when the code does
 * not use the name.
 *
 * Which spots are code is the server's to say: its semantic tokens when it has them (a comment or
 * a string is no name token), else each whole-word occurrence the server can define (a comment
 * or a string has no definition). Occurrences are the same thing when their definitions share a
 * target. A server without definitions cannot tell uses apart: each occurrence is its own thing.
 * Waits for the server's navigation readiness first, so that definitions are the whole project's
 * (typescript-language-server's early answers stop at an import).
 */
export async function findUses(target: OpenTarget, name: string, line: number | undefined, options: RequestOptions): Promise<Occurrence[]> {
  const { client, synced } = target;
  const { uri } = synced.document;
  const encoding = client.positionEncoding;
  await awaitNavigationReady(client, synced.document, options);
  const tokens = await requestSemanticTokens(client, uri, options);
  const all = tokens ? tokenOccurrences(tokens, name, synced.lines, encoding) : wordOccurrences(name, synced.lines, encoding);
  const occurrences = line === undefined ? all : all.filter((occurrence) => occurrence.at.line === line);
  if (occurrences.length === 0) return [];
  if (!hasCapability(client, "definitionProvider", DefinitionRequest.method)) return occurrences;
  const definitions: { uri: string; line: number; character: number }[][] = [];
  for (let start = 0; start < occurrences.length; start += DEFINITIONS_IN_FLIGHT) {
    const batch = occurrences.slice(start, start + DEFINITIONS_IN_FLIGHT);
    const answers = await Promise.all(batch.map((occurrence) => requestDefinition(client, uri, occurrence.lsp, options)));
    definitions.push(
      ...answers.map((targets) => targets.map((t) => ({ uri: t.uri, line: t.selectionRange.start.line, character: t.selectionRange.start.character }))),
    );
  }
  const groups = groupBySameDefinition(occurrences, definitions);
  // Name tokens the server cannot define are still code: each stands for itself.
  if (groups.length === 0 && tokens) return occurrences;
  return groups.map((group) => group[0]!);
}
