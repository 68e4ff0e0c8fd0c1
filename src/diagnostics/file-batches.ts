import type { LspClient } from "../lsp/lsp-client.js";
import { runPool, type FirstFailure } from "../targets/run-pool.js";

/**
 * The documents one batch opened, for `check` to close together once the whole batch is read.
 * Closing each as soon as its own file is read would change the server's open documents while
 * the rest of the batch is still being answered.
 */
export class BatchDocuments {
  private readonly opened: { readonly client: LspClient; readonly uri: string }[] = [];

  add(client: LspClient, uri: string): void {
    this.opened.push({ client, uri });
  }

  /** Closes every document the batch opened that is still open; a closed connection has none left. */
  async closeAll(): Promise<void> {
    for (const { client, uri } of this.opened.splice(0)) {
      if (!client.isClosed && client.documents.get(uri)) await client.documents.close(uri).catch(() => {});
    }
  }
}

/**
 * Files answered one by one, a batch at a time: every file of a batch is opened and answered, and
 * its documents are closed (`close`, for `check`) before the next batch opens any. A server that
 * starts its work in flight over whenever its open documents change (ty cancels every pending
 * pull at each `didOpen` and `didClose`) then does that work once per batch, not once per file.
 */
export async function runFileBatches<T>(
  items: readonly T[],
  batchSize: number,
  failure: FirstFailure,
  close: boolean,
  work: (item: T, documents: BatchDocuments | undefined) => Promise<void>,
): Promise<void> {
  for (let from = 0; from < items.length && !failure.signal.aborted; from += batchSize) {
    const documents = close ? new BatchDocuments() : undefined;
    try {
      await runPool(items.slice(from, from + batchSize), batchSize, failure, (item) => work(item, documents));
    } finally {
      await documents?.closeAll();
    }
  }
  failure.rethrow();
}
