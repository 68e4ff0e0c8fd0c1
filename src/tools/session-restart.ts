import { z } from "zod";
import { namedServer, pickWorkspace } from "../targets/resolve-target.js";
import { boundedSingle } from "./bounded-answer.js";
import { serverArg, workspaceArg } from "./common-schemas.js";
import { renderStatusLine, SessionStatusSchema } from "./session-status.js";
import { defineTool } from "./tool-definition.js";

/**
 * `session_restart`: the only way a dead session comes back. The old process tree is reaped
 * before the new server starts, and the answer is the new session's status. The sessions of the
 * server's other toolchains end with it, dead ones included, and start again on their next call.
 */
export const sessionRestartTool = defineTool({
  name: "session_restart",
  title: "Restart session",
  description: "Restart a session's server (whole process tree); revives a dead session.",
  // Writes no file, but two restarts are not one: a client must not re-send it on its own.
  idempotent: false,
  inputSchema: z.strictObject({
    workspace: workspaceArg,
    server: serverArg.unwrap().describe("Server name."),
  }),
  outputSchema: SessionStatusSchema,
  handler: async (args, context) => {
    const workspace = pickWorkspace(context.config, args.workspace);
    const server = namedServer(context.config, workspace, args.server);
    // The server's other toolchains (a project's own compiler) end too, and start afresh when next needed.
    await context.sessions.forgetToolchains(workspace, server.name);
    const session = await context.sessions.restart(workspace, server, context.deadline);
    const status = session.status();
    return boundedSingle({ structured: status, text: renderStatusLine(status) }, context.config.bridge.max_result_bytes);
  },
});
