// Starts `pcl lsp` for .pp files. Settings: pcl.serverPath, pcl.schemaPaths (restarts on change).
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from "vscode-languageclient/node";

let client: LanguageClient | undefined;

function makeClient(): LanguageClient {
  const config = vscode.workspace.getConfiguration("pcl");
  const command = config.get<string>("serverPath") || "pcl";
  const serverOptions: ServerOptions = {
    run: { command, args: ["lsp"] },
    debug: { command, args: ["lsp"] },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: "file", language: "pcl" }],
    initializationOptions: { schemaPaths: config.get<string[]>("schemaPaths") ?? [] },
  };
  return new LanguageClient("pcl", "PCL language server", serverOptions, clientOptions);
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  client = makeClient();
  await client.start();
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("pcl")) {
        await client?.stop();
        client = makeClient();
        await client.start();
      }
    }),
  );
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
