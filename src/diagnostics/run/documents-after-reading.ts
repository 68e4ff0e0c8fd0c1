/**
 * What a run of many files does with each document once its diagnostics are read, chosen once by
 * the caller and passed down. `close`: closed (with the rest of its batch, for a server given a
 * batch at a time), so a large run never holds more than a batch open (`check`, a revision's
 * snapshot). `keep`: left open, so a repeated call on unchanged files sends no sync at all (the
 * `diagnostics` tool).
 */
export type DocumentsAfterReading = "close" | "keep";
