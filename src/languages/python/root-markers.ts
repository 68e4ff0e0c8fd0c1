import type { RootMarkers, TableMarker } from "../../config/project-roots.js";

/**
 * The configuration roots of Python's checkers, each as its CLI run from a folder reads them:
 * pyright reads pyrightconfig.json, else pyproject.toml's [tool.pyright]; basedpyright reads
 * [tool.basedpyright] too; ty reads ty.toml, else [tool.ty].
 */
export const PYTHON_ROOT_MARKERS = {
  pyright: { files: ["pyrightconfig.json"], tables: [pyproject("pyright")], outputFolders: [] },
  basedpyright: { files: ["pyrightconfig.json"], tables: [pyproject("basedpyright"), pyproject("pyright")], outputFolders: [] },
  ty: { files: ["ty.toml"], tables: [pyproject("ty")], outputFolders: [] },
} as const satisfies Record<string, RootMarkers>;

function pyproject(tool: string): TableMarker {
  return { file: "pyproject.toml", table: new RegExp(`^\\[tool\\.${tool}[.\\]]`, "m") };
}
