import { compareStrings } from "../../contract/compare.js";
import type { FileDiagnostics } from "../run/file-diagnostics.js";

/** A file its server did not check at all, and why (the server's notice, never a finding). */
export interface NotCheckedFile {
  readonly workspace: string;
  readonly server: string;
  readonly path: string;
  readonly reason: string;
}

/**
 * The files of `answers` that their server did not check (gopls: build constraints leave them
 * out), as the `diagnostics` tool's `not_checked` and `check`'s summary list them: by path, then
 * server; answers that tie (one path in two workspaces) keep their order.
 */
export function notCheckedFiles(answers: readonly FileDiagnostics[]): NotCheckedFile[] {
  return answers
    .flatMap((answer) =>
      answer.notChecked === undefined
        ? []
        : [{ workspace: answer.workspace.name, server: answer.server.name, path: answer.file.path, reason: answer.notChecked }],
    )
    .sort((a, b) => compareStrings(a.path, b.path) || compareStrings(a.server, b.server));
}
