import type { ServerCapabilities } from "vscode-languageserver-protocol";
import { requireCapability } from "../lsp/features/capability.js";
import { awaitNavigationReady } from "../lsp/features/navigation-readiness.js";
import type { CallContext } from "../targets/call-context.js";
import { openTarget, type OpenTarget } from "../targets/open-target.js";
import { resolveTarget } from "../targets/resolve-target.js";
import { resolvePosition, type PositionArgs, type ResolvedPosition } from "./resolve-position.js";
import { TargetTexts } from "./target-texts.js";

/** Which server feature a navigation call needs. */
export interface NavigationFeature {
  readonly capability: keyof ServerCapabilities;
  readonly method: string;
}

/** A file and position, ready for a navigation request. */
export interface OpenNavigation extends OpenTarget {
  readonly position: ResolvedPosition;
  /** Reads the files the answer points into, once each. */
  readonly texts: TargetTexts;
}

/**
 * The steps every navigation tool shares, cheapest failure first: the file (as `openTarget`),
 * the capability (`NotSupported` at once, never a request that times out), the position or
 * symbol, and then the wait until the server answers from its whole project
 * (`awaitNavigationReady`), so that a first call gives the same list as a later one.
 */
export async function openNavigation(
  context: CallContext,
  args: PositionArgs & { workspace?: string | undefined; server?: string | undefined; path: string },
  feature: NavigationFeature,
): Promise<OpenNavigation> {
  const target = await openTarget(context, resolveTarget(context.config, args));
  requireCapability(target.client, feature.capability, feature.method);
  const options = { deadline: context.deadline, signal: context.signal };
  const position = await resolvePosition(target, args, options);
  await awaitNavigationReady(target.client, target.synced.document, options);
  return { ...target, position, texts: new TargetTexts(target.workspace, target.client) };
}
