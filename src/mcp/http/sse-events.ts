/**
 * The `data` of each event of a text/event-stream body, in order (multi-line data joined by
 * "\n"; comments, ids and retry hints skipped). Ends when the body ends.
 */
export async function* sseEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let data: string[] = [];
  let pending = "";
  for await (const chunk of body) {
    pending += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, newline).replace(/\r$/, "");
      pending = pending.slice(newline + 1);
      if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      else if (line === "" && data.length > 0) {
        yield data.join("\n");
        data = [];
      }
    }
  }
}
