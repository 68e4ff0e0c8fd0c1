import type { IncomingMessage } from "node:http";

/** The request body bound of the shared server: the stdin line bound of CONTRACT §1, 4 MiB. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A POST body read within the bound: its JSON, or why there is none. */
export type BodyRead = { readonly kind: "json"; readonly value: unknown } | { readonly kind: "too-large" } | { readonly kind: "not-json" };

/**
 * Reads a request body up to `maxBytes`: a declared Content-Length over the bound is refused
 * before anything is read, and reading stops as soon as more than the bound has arrived. Parsed
 * here, once, so the SDK's transport is handed the message itself (its own body reading goes
 * through web streams, which cost the shared server a millisecond a call).
 */
export async function readJsonBody(request: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<BodyRead> {
  if (Number(request.headers["content-length"] ?? 0) > maxBytes) return { kind: "too-large" };
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request) {
    length += (chunk as Buffer).length;
    if (length > maxBytes) return { kind: "too-large" };
    chunks.push(chunk as Buffer);
  }
  try {
    return { kind: "json", value: JSON.parse(Buffer.concat(chunks, length).toString("utf8")) };
  } catch {
    return { kind: "not-json" };
  }
}
