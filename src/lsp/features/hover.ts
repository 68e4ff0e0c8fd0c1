import { HoverRequest, MarkupContent, type Hover, type MarkedString, type Position } from "vscode-languageserver-protocol";
import type { LspClient, RequestOptions } from "../lsp-client.js";
import { requireCapability } from "./capability.js";

/** What `textDocument/hover` said, with its contents rendered as one markdown text. */
interface HoverAnswer {
  readonly markdown: string;
  readonly range: Hover["range"] | null;
}

/** Asks for hover at an LSP position; null when the server has nothing to say there. */
export async function requestHover(client: LspClient, uri: string, position: Position, options: RequestOptions): Promise<HoverAnswer | null> {
  requireCapability(client, "hoverProvider", HoverRequest.method);
  const hover = await client.request(HoverRequest.type, { textDocument: { uri }, position }, options);
  if (!hover) return null;
  const markdown = renderHoverContents(hover.contents);
  return { markdown, range: hover.range ?? null };
}

/** MarkupContent, MarkedString and arrays of MarkedString all become one markdown text. */
export function renderHoverContents(contents: Hover["contents"]): string {
  if (MarkupContent.is(contents)) return contents.value;
  const parts = Array.isArray(contents) ? contents : [contents];
  return parts
    .map(renderMarkedString)
    .filter((part) => part.length > 0)
    .join("\n\n");
}

function renderMarkedString(part: MarkedString): string {
  if (typeof part === "string") return part;
  return "```" + part.language + "\n" + part.value + "\n```";
}
