import type { ResolvedServer, ResolvedWorkspace } from "../../../src/config/types.js";
import type { FileDiagnostics } from "../../../src/diagnostics/run/file-diagnostics.js";

/** A file's answer with no findings, as the runner gives it; `notChecked` when its server did not check it. */
export function answer(workspace: string, server: string, path: string, notChecked?: string): FileDiagnostics {
  return {
    workspace: { name: workspace } as ResolvedWorkspace,
    server: { name: server } as ResolvedServer,
    file: { absolutePath: `/${workspace}/${path}`, path, extension: "go", name: path },
    text: "",
    diagnostics: [],
    ...(notChecked === undefined ? {} : { notChecked }),
  };
}
