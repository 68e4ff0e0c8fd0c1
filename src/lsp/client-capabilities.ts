import {
  CodeActionKind,
  DiagnosticTag,
  MarkupKind,
  PositionEncodingKind,
  PrepareSupportDefaultBehavior,
  ResourceOperationKind,
  SemanticTokenModifiers,
  SemanticTokenTypes,
  type SymbolKind,
  type ClientCapabilities,
} from "vscode-languageserver-protocol";

const ALL_SYMBOL_KINDS: SymbolKind[] = Array.from({ length: 26 }, (_, i) => (i + 1) as SymbolKind);

// Every base kind, so that servers send code actions as literals (with kind, diagnostics and
// isPreferred) rather than bare commands.
const CODE_ACTION_KINDS = [
  CodeActionKind.Empty,
  CodeActionKind.QuickFix,
  CodeActionKind.Refactor,
  CodeActionKind.RefactorExtract,
  CodeActionKind.RefactorInline,
  CodeActionKind.RefactorRewrite,
  CodeActionKind.Source,
  CodeActionKind.SourceOrganizeImports,
  CodeActionKind.SourceFixAll,
];

/**
 * What lspmcp honestly supports as a client. Each capability is one that some code in `src/lsp/`
 * acts on: advertising more would invite server requests we would answer wrongly.
 */
export const CLIENT_CAPABILITIES: ClientCapabilities = {
  general: {
    // Offered in order of preference; the server picks one in `capabilities.positionEncoding`.
    positionEncodings: [PositionEncodingKind.UTF16, PositionEncodingKind.UTF8, PositionEncodingKind.UTF32],
  },
  window: {
    workDoneProgress: true,
    showMessage: {},
  },
  workspace: {
    configuration: true,
    workspaceFolders: true,
    applyEdit: false,
    // The shapes `rename_preview` reads: document changes with file operations. Nothing is
    // applied (applyEdit is false and a server's workspace/applyEdit is refused).
    workspaceEdit: {
      documentChanges: true,
      resourceOperations: [ResourceOperationKind.Create, ResourceOperationKind.Rename, ResourceOperationKind.Delete],
      normalizesLineEndings: false,
    },
    diagnostics: { refreshSupport: false },
    symbol: {
      dynamicRegistration: true,
      symbolKind: { valueSet: ALL_SYMBOL_KINDS },
    },
    didChangeConfiguration: { dynamicRegistration: true },
  },
  // rust-analyzer then says when its own analysis is ready (`experimental/serverStatus`), which
  // settles its diagnostics (settle-rule.ts); other servers ignore it.
  experimental: { serverStatusNotification: true },
  textDocument: {
    synchronization: {
      dynamicRegistration: true,
      didSave: false,
      willSave: false,
      willSaveWaitUntil: false,
    },
    publishDiagnostics: {
      relatedInformation: false,
      versionSupport: true,
      tagSupport: { valueSet: [DiagnosticTag.Unnecessary, DiagnosticTag.Deprecated] },
      codeDescriptionSupport: false,
      dataSupport: false,
    },
    // Dynamic registration is what makes pyright answer pulls after checking the file (instead of
    // pushing the sets of a partial first pass); see settle-rule.ts and docs/tools.md.
    diagnostic: {
      dynamicRegistration: true,
      relatedDocumentSupport: false,
    },
    hover: {
      dynamicRegistration: true,
      contentFormat: [MarkupKind.Markdown, MarkupKind.PlainText],
    },
    documentSymbol: {
      dynamicRegistration: true,
      hierarchicalDocumentSymbolSupport: true,
      symbolKind: { valueSet: ALL_SYMBOL_KINDS },
    },
    // linkSupport: servers then answer with LocationLinks, which carry the whole target range and
    // the name's range apart (a plain Location has only one of them).
    definition: { dynamicRegistration: true, linkSupport: true },
    declaration: { dynamicRegistration: true, linkSupport: true },
    typeDefinition: { dynamicRegistration: true, linkSupport: true },
    implementation: { dynamicRegistration: true, linkSupport: true },
    references: { dynamicRegistration: true },
    // Servers offer call hierarchy only to clients that declare it.
    callHierarchy: { dynamicRegistration: true },
    codeAction: {
      dynamicRegistration: true,
      codeActionLiteralSupport: { codeActionKind: { valueSet: CODE_ACTION_KINDS } },
      isPreferredSupport: true,
      disabledSupport: true,
      // No dataSupport and no resolveSupport: actions are only listed, never resolved.
      dataSupport: false,
      honorsChangeAnnotations: false,
    },
    // Whole-document tokens only: `symbol` reads them to tell a name's uses in code from its
    // mentions in comments and strings (resolve-use.ts). Static only, so the legend is known.
    semanticTokens: {
      dynamicRegistration: false,
      requests: { full: true },
      tokenTypes: Object.values(SemanticTokenTypes),
      tokenModifiers: Object.values(SemanticTokenModifiers),
      formats: ["relative"],
      overlappingTokenSupport: false,
      multilineTokenSupport: false,
    },
    // prepareSupport: servers answer textDocument/prepareRename only when it is declared.
    rename: {
      dynamicRegistration: true,
      prepareSupport: true,
      prepareSupportDefaultBehavior: PrepareSupportDefaultBehavior.Identifier,
      honorsChangeAnnotations: false,
    },
  },
};

/**
 * The same, for a server whose files the bridge watches (its adapter says so): it declares
 * dynamic registration of `workspace/didChangeWatchedFiles` with relative patterns (what
 * typescript-language-server requires before it lets tsserver hand its file watching to the
 * client), and the bridge sends the changes it finds on disk (src/disk-sync/).
 */
export const WATCHING_CLIENT_CAPABILITIES: ClientCapabilities = {
  ...CLIENT_CAPABILITIES,
  workspace: {
    ...CLIENT_CAPABILITIES.workspace,
    didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
  },
};
