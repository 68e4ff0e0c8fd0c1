/**
 * Whose run of many files it is, chosen once by the caller and passed down. `check`'s: each
 * document is closed once read (with the rest of its batch, for a server given a batch at a
 * time), so a large run never holds more than a batch open, and
 * (`runCheck`) each session is stopped after its last file and reported. The `tool`'s: documents
 * stay open, so a repeated call on unchanged files sends no sync at all, and no session is reported.
 */
export type RunMode = "check" | "tool";
