/**
 * The diagnostics the server currently publishes, per URI. A check of document A may report on
 * A and on files A loads; a document's own check is authoritative for it, and for a file that is
 * not checked itself the latest check that loaded it decides.
 */
import type { Diagnostic } from "vscode-languageserver/node";
import type { CheckReport } from "./checker.js";

interface Slot {
  readonly seq: number;
  readonly diagnostics: Diagnostic[];
}

/** Per-URI diagnostics from several checks, with the precedence described above. */
export class DiagnosticsStore {
  // uri → owner (the document whose check produced it) → what that check said about uri.
  private readonly byUri = new Map<string, Map<string, Slot>>();
  private readonly owned = new Map<string, Set<string>>();
  private seq = 0;

  /** Records a report; returns every URI whose diagnostics may have changed. */
  apply(report: CheckReport): string[] {
    const owner = report.uri;
    const before = this.owned.get(owner) ?? new Set<string>();
    const now = new Set(report.diagnostics.keys());
    for (const uri of before) if (!now.has(uri)) this.byUri.get(uri)?.delete(owner);
    for (const [uri, diagnostics] of report.diagnostics) {
      let slots = this.byUri.get(uri);
      if (slots === undefined) this.byUri.set(uri, (slots = new Map()));
      slots.set(owner, { seq: ++this.seq, diagnostics });
    }
    this.owned.set(owner, now);
    return [...new Set([...before, ...now])];
  }

  /** Forgets everything a (closed) document's checks said; returns the URIs affected. */
  removeOwner(owner: string): string[] {
    const before = this.owned.get(owner) ?? new Set<string>();
    for (const uri of before) this.byUri.get(uri)?.delete(owner);
    this.owned.delete(owner);
    return [...before];
  }

  /** Whether `uri` has a check of its own recorded. */
  hasOwn(uri: string): boolean {
    return this.byUri.get(uri)?.has(uri) ?? false;
  }

  /** What to publish for `uri` now. */
  view(uri: string): Diagnostic[] {
    const slots = this.byUri.get(uri);
    if (slots === undefined) return [];
    const own = slots.get(uri);
    if (own !== undefined) return own.diagnostics;
    let best: Slot | undefined;
    for (const slot of slots.values()) if (best === undefined || slot.seq > best.seq) best = slot;
    return best?.diagnostics ?? [];
  }
}
