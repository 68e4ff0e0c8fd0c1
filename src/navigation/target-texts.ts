import { isAbsolute } from "node:path";
import { fileURLToPath } from "node:url";
import type { Range } from "vscode-languageserver-protocol";
import type { ResolvedWorkspace } from "../config/types.js";
import { lineExcerpt, type LocationItem } from "../contract/location-order.js";
import { LineIndex, type BridgePosition, type BridgeRange } from "../contract/positions.js";
import type { LspClient } from "../lsp/lsp-client.js";
import { readSourceFile } from "../files/read-source-file.js";
import { workspaceRelativePath } from "../targets/resolve-target.js";
import { realPath } from "../files/real-path.js";
import { linesOf } from "../targets/synced-document.js";

/** A target file as one call sees it. */
interface TargetFile {
  readonly path: string;
  readonly inWorkspace: boolean;
  /** Null when the file cannot be read as UTF-8 text (or the URI is not a file). */
  readonly lines: LineIndex | null;
}

/**
 * The texts of the files a navigation answer points into, each read once per call: the synced
 * document when the server has it open (its positions refer to that text), else the file on
 * disk. Converts server ranges into location items (CONTRACT §4.1). Never writes, and never
 * returns text of a file outside the workspace.
 */
export class TargetTexts {
  readonly #files = new Map<string, Promise<TargetFile>>();

  constructor(
    private readonly workspace: ResolvedWorkspace,
    private readonly client: LspClient,
  ) {}

  /** A location item for a target: path, whether it is in the workspace, ranges and the start line. */
  async locationItem(uri: string, range: Range, selectionRange: Range): Promise<LocationItem> {
    const file = await this.file(uri);
    const start = this.convertRange(file, range);
    return {
      path: file.path,
      in_workspace: file.inWorkspace,
      range: start,
      selection_range: this.convertRange(file, selectionRange),
      text: this.excerpt(file, range.start.line),
    };
  }

  /** A range of `uri` in bridge positions. */
  async range(uri: string, range: Range): Promise<BridgeRange> {
    return this.convertRange(await this.file(uri), range);
  }

  /** A range of `uri` in bridge positions, or null when its text cannot be had (no guess is made). */
  async knownRange(uri: string, range: Range): Promise<BridgeRange | null> {
    const file = await this.file(uri);
    return file.lines ? file.lines.rangeFromLsp(range, this.client.positionEncoding) : null;
  }

  /** The display path of `uri` and whether it lies in the workspace. */
  async place(uri: string): Promise<{ path: string; inWorkspace: boolean }> {
    const { path, inWorkspace } = await this.file(uri);
    return { path, inWorkspace };
  }

  /** The excerpt of a 0-based line of `uri` (CONTRACT §4.1 `text`), null outside the workspace or unreadable. */
  async lineText(uri: string, line0: number): Promise<string | null> {
    return this.excerpt(await this.file(uri), line0);
  }

  private excerpt(file: TargetFile, line0: number): string | null {
    if (!file.inWorkspace || !file.lines || line0 < 0 || line0 >= file.lines.lineCount) return null;
    return lineExcerpt(file.lines.lineText(line0 + 1));
  }

  private convertRange(file: TargetFile, range: Range): BridgeRange {
    if (file.lines) return file.lines.rangeFromLsp(range, this.client.positionEncoding);
    // Without the text, the server's numbers are all there is: shown 1-based, as the contract says.
    const point = (p: Range["start"]): BridgePosition => ({ line: p.line + 1, column: p.character + 1 });
    return { start: point(range.start), end: point(range.end) };
  }

  private file(uri: string): Promise<TargetFile> {
    let file = this.#files.get(uri);
    if (!file) {
      file = this.load(uri);
      this.#files.set(uri, file);
    }
    return file;
  }

  private async load(uri: string): Promise<TargetFile> {
    if (!uri.startsWith("file:")) return { path: uri, inWorkspace: false, lines: null };
    const lexical = fileURLToPath(uri);
    const real = realOrSame(lexical);
    const path = workspaceRelativePath(this.workspace.root, real);
    const inWorkspace = !isAbsolute(path);
    const open = this.client.documents.get(uri);
    if (open) return { path, inWorkspace, lines: linesOf(open) };
    const text = await readSourceFile(real, path).catch(() => null);
    return { path, inWorkspace, lines: text === null ? null : new LineIndex(text) };
  }
}

function realOrSame(path: string): string {
  try {
    return realPath(path);
  } catch {
    return path;
  }
}
