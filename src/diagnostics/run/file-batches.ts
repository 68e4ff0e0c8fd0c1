import type { LspClient } from "../../lsp/lsp-client.js";
import { runPool, type FirstFailure } from "./run-pool.js";

/** The documents a file, or a batch of files, opened: `check` closes them once all of it is read. */
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

/** How a session's files are run one by one. */
interface FileRunOptions {
  /** At most this many files in flight, and documents open. */
  readonly batchSize: number;
  /** Close each document once read (`check`): alone, or (`together`) with the rest of its batch. */
  readonly close: boolean;
  /**
   * A batch at a time (the adapter's `documentChangesCancelWork`): every file of a batch is opened
   * and answered before the batch's documents are closed and the next batch opens any, so a
   * server that starts its work in flight over at each open and close (ty) does it once per batch,
   * not once per file. Otherwise a file starts as soon as another is done: a slow file never holds
   * the others back.
   */
  readonly together: boolean;
}

/** Runs `work` on every item one by one, as `options` say; `work` adds the documents it opened to the batch it is given. */
export async function runFileBatches<T>(
  items: readonly T[],
  options: FileRunOptions,
  failure: FirstFailure,
  work: (item: T, documents: BatchDocuments | undefined) => Promise<void>,
): Promise<void> {
  const { batchSize, close } = options;
  if (!options.together) {
    await runPool(items, batchSize, failure, async (item) => {
      const documents = close ? new BatchDocuments() : undefined;
      try {
        await work(item, documents);
      } finally {
        await documents?.closeAll();
      }
    });
    return;
  }
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
