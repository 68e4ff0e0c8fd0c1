import {
  DiagnosticTag,
  MarkupKind,
  PositionEncodingKind,
  SymbolKind,
  type ClientCapabilities,
} from "vscode-languageserver-protocol";

const ALL_SYMBOL_KINDS: SymbolKind[] = Array.from({ length: 26 }, (_, i) => (i + 1) as SymbolKind);

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
    diagnostics: { refreshSupport: false },
    symbol: {
      dynamicRegistration: true,
      symbolKind: { valueSet: ALL_SYMBOL_KINDS },
    },
    didChangeConfiguration: { dynamicRegistration: true },
  },
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
  },
};
