import type { KeptTexts, ProjectAnswer } from "../lsp/project-model.js";
import type { LspClient } from "../lsp/lsp-client.js";
import { DiskView } from "./disk-view.js";
import type { BridgeDiagnostic } from "../contract/diagnostic-order.js";

/**
 * What the bridge knows of one session's project for project-level answers: the disk as the
 * server was last told of it, and the answers of the server's program since (by absolute path).
 * An answer stays valid until a change can reach its file; see `apply-disk-changes.ts`. Tied to
 * one connection: a restarted server starts with none.
 */
export class ProjectState implements KeptTexts {
  /** Replaced once, before its first look, by the view of the server this one's start replaced (see `refresh-from-disk.ts`). */
  disk: DiskView;
  readonly answers = new Map<string, ProjectAnswer>();
  /**
   * Each kept answer as last given, converted, with the text it was converted on: given again
   * while the disk look finds its file unchanged and its answer is still the kept one.
   */
  readonly rendered = new Map<
    string,
    { readonly answer: ProjectAnswer; readonly uri: string; readonly text: string; readonly diagnostics: BridgeDiagnostic[] }
  >();
  /** What the adapter's change queries noted of a changed file when the change was told (theirs to read). */
  readonly notes = new Map<string, unknown>();
  /**
   * The client's document notification count when the answers were last brought up to date: a
   * document synced or closed after it may have changed the server's program on its own.
   */
  sentAtLook = 0;
  /** The last look at the disk and the telling of its changes; the next waits for it. */
  refreshed: Promise<void> = Promise.resolve();
  /** Counts the changes told to the server; an answer asked before one is not kept. */
  generation = 0;
  /**
   * Set when a change on disk restarted the session instead of being told (the adapter's
   * `diskChangesNeedRestart`): its new client, which every call still holding this one takes.
   */
  restarted: Promise<LspClient> | null = null;

  /** The text `path`'s kept answer was converted on, while that answer is still the kept one. */
  keptText(path: string): string | undefined {
    const rendered = this.rendered.get(path);
    return rendered && this.answers.get(path) === rendered.answer ? rendered.text : undefined;
  }

  constructor(client: LspClient) {
    // A server with complete pulls reads its project at its first question, which comes after the
    // bridge's first look: it has read nothing that look could have to report.
    this.disk = new DiskView(client.adapter.projectModel?.answersUnopened ? Number.POSITIVE_INFINITY : client.connectedAtMs, (path) =>
      client.adapter.watchedFiles.test(path),
    );
  }

  /**
   * Sets the kept answers (`answers`, `rendered`, `notes`) aside while the server's program is
   * not the disk's (a preview of changes): `putBack` makes them the kept ones again once it is,
   * dropping any kept in between. `keepUnreached` keeps, meanwhile, those of the files a preview's
   * changes cannot reach (the project model's `ChangeReach`): the program gives them again as it is. Both switches bump
   * `generation`, so no answer asked on one side of either is kept on the other.
   */
  setAsideAnswers(): { putBack: () => void; keepUnreached: (reached: ReadonlySet<string>) => void } {
    const aside = [moveOut(this.answers), moveOut(this.rendered), moveOut(this.notes)];
    this.generation++;
    return {
      putBack: () => {
        for (const { putBack } of aside) putBack();
        this.generation++;
      },
      keepUnreached: (reached) => {
        for (const { lend } of aside) lend((path) => !reached.has(path));
      },
    };
  }
}

/**
 * Empties `map`; `putBack` makes it hold exactly its entries of now again, `lend` puts back
 * meanwhile those whose key `keep` accepts.
 */
function moveOut<V>(map: Map<string, V>): { putBack: () => void; lend: (keep: (key: string) => boolean) => void } {
  const entries = [...map];
  map.clear();
  return {
    putBack: () => {
      map.clear();
      for (const [key, value] of entries) map.set(key, value);
    },
    lend: (keep) => {
      for (const [key, value] of entries) if (keep(key)) map.set(key, value);
    },
  };
}

const states = new WeakMap<LspClient, ProjectState>();

/** The state of `client`'s connection, made on first use. */
export function projectStateOf(client: LspClient): ProjectState {
  let state = states.get(client);
  if (!state) {
    state = new ProjectState(client);
    states.set(client, state);
  }
  return state;
}
