import { requireCachedTool } from "./tool-cache.js";

/**
 * Requires every tool-cache server's command, for a test that starts every shipped profile. The
 * paths are literal because `npm test` reads them (scripts/run-tests.ts: such a test runs after a
 * first run's builds); tests/unit/scripts/every-cached-server.test.ts holds them to the profiles.
 */
export function requireEveryCachedServer(): void {
  requireCachedTool("bacon-ls/bin/bacon-ls");
  requireCachedTool("basedpyright/node_modules/.bin/basedpyright-langserver");
  requireCachedTool("emmylua/bin/emmylua_ls");
  requireCachedTool("go/bin/gopls");
  requireCachedTool("pyrefly/bin/pyrefly");
  requireCachedTool("ruff/bin/ruff");
  requireCachedTool("rust-analyzer/bin/rust-analyzer");
  requireCachedTool("ty/bin/ty");
}
