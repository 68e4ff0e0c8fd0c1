import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { replaceFile } from "../config/own-files.js";

/** The file an install leaves in its tool-cache folder, last, once the pin was verified. */
export const RECEIPT_FILE = ".lspmcp-install.json";

const ReceiptSchema = z.object({
  server: z.string(),
  version: z.string(),
  /** What the verification read (the version command's first line). */
  reported: z.string(),
  installed_at: z.string(),
});

/** What `lspmcp servers install` installed into a folder, and the version it verified. */
type InstallReceipt = z.output<typeof ReceiptSchema>;

/** The receipt in `folder`, or null when there is none or it does not parse. */
export async function readReceipt(folder: string): Promise<InstallReceipt | null> {
  const text = await readFile(join(folder, RECEIPT_FILE), "utf8").catch(() => null);
  if (text === null) return null;
  try {
    const parsed = ReceiptSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Writes the receipt into `folder` (a staging folder, renamed into place after, or an earlier
 * install's), aside and renamed over: a link under its name is replaced, never written through.
 */
export async function writeReceipt(folder: string, receipt: InstallReceipt): Promise<void> {
  replaceFile(join(folder, RECEIPT_FILE), `${JSON.stringify(receipt, null, 2)}\n`, 0o644);
}
