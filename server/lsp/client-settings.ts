// The `cqlint.*` settings the client sends: window-wide, per workspace folder and per open document
// (asked for with workspace/configuration when the client supports it, else from initializationOptions
// and didChangeConfiguration payloads). Parsing and defaults: settings.ts.
import type { ClientCapabilities, Connection, DidChangeConfigurationParams } from 'vscode-languageserver/node';
import * as path from 'node:path';
import type { ProjectOptions } from '../core/engine/project';
import type { EvidenceSetting } from '../core/evidence';
import type { ClusterSetting } from '../core/vocabulary/config';
import { isInside } from '../core/io/files';
import type { ChangeReason, Logger } from './context';
import * as conv from './conversions';
import { describeError } from './safe';
import { DEFAULT_SETTINGS, ScopedSettings, parseSettings, type CqlintSettings } from './settings';

interface ClientSettingsHost {
  connection: Connection;
  log: Logger;
  clientCapabilities(): ClientCapabilities;
  workspaceFolders(): readonly string[];
  /** The URI of an open document, by engine key. */
  documentUri(filePath: string): string | undefined;
  openUris(): Iterable<string>;
  initialised(): boolean;
  /**
   * The settings were applied (the project options must follow); with a reason, they changed after
   * `initialized` and every file must be re-checked.
   */
  applied(reason?: ChangeReason): void;
  /** An open document's own settings arrived and differ from its folder's. */
  documentScopeChanged(filePath: string): void;
}

export class ClientSettings {
  /** Window-wide settings (a fresh object after each change). */
  current: CqlintSettings = { ...DEFAULT_SETTINGS };
  // Settings are declared per resource: each open document and each workspace folder gets its own,
  // asked for with its URI as scopeUri (a file not open takes its folder's).
  private readonly scoped: ScopedSettings;

  constructor(private readonly host: ClientSettingsHost) {
    this.scoped = new ScopedSettings(
      async (scopeUri) => (await host.connection.workspace.getConfiguration([{ scopeUri, section: 'cqlint' }]))[0],
      () => this.current,
      (problem) => host.log.warn(`cqlint: settings: ${problem}`),
    );
  }

  private supportsConfigurationRequest(): boolean {
    return this.host.clientCapabilities().workspace?.configuration === true;
  }

  /** The settings that apply to a document (asked for with its URI as scopeUri when the client can). */
  settingsFor(uri: string): Promise<CqlintSettings> {
    return this.supportsConfigurationRequest() ? this.scoped.get(uri) : Promise.resolve(this.current);
  }

  /** The settings known for a file now: its document's, else its workspace folder's, else the window's. */
  settingsOf(filePath: string): CqlintSettings {
    if (!this.supportsConfigurationRequest()) return this.current;
    const open = this.host.documentUri(filePath);
    const folder = this.folderUriOf(filePath);
    return (open && this.scoped.peek(open)) || (folder && this.scoped.peek(folder)) || this.current;
  }

  /** The options of the Project that follow from the settings. */
  projectOptions(): Pick<ProjectOptions, 'target' | 'ruleOverrides' | 'forFile'> {
    const settings = this.current;
    return {
      target: settings.targetOverride,
      ruleOverrides: { ...settings.rules },
      // `cqlint.evidence` and `cqlint.cluster` are relative to the file's workspace folder, so they are answered per file.
      forFile: (filePath) => {
        const own = this.settingsOf(filePath);
        const evidence = this.evidenceOf(filePath, own);
        const cluster = this.clusterOf(filePath, own);
        return own === settings && !evidence.length && !cluster
          ? undefined
          : { target: own.targetOverride, ruleOverrides: own.rules, evidence, cluster };
      },
    };
  }

  /** `cqlint.cluster` of a file, its yaml resolved against its workspace folder (a user setting: it may lie anywhere). */
  private clusterOf(filePath: string, own: CqlintSettings): ClusterSetting | undefined {
    const cluster = own.cluster;
    if (!cluster) return undefined;
    const folder =
      this.host.workspaceFolders().find((f) => isInside(f, filePath)) ??
      this.host.workspaceFolders()[0] ??
      process.cwd();
    return {
      ...(cluster.version ? { version: cluster.version } : {}),
      ...(cluster.config
        ? {
            config: path.isAbsolute(cluster.config) ? cluster.config : path.resolve(folder, cluster.config),
            name: cluster.config,
            unconfined: true,
          }
        : {}),
    };
  }

  /** `cqlint.evidence` of a file, resolved against its workspace folder (a user setting: it may lie anywhere). */
  private evidenceOf(filePath: string, own: CqlintSettings): EvidenceSetting[] {
    if (!own.evidence.length) return [];
    const folder =
      this.host.workspaceFolders().find((f) => isInside(f, filePath)) ??
      this.host.workspaceFolders()[0] ??
      process.cwd();
    return own.evidence.map((e) => ({
      path: path.isAbsolute(e) ? e : path.resolve(folder, e),
      name: e,
      unconfined: true,
    }));
  }

  /** Settings passed at startup: `{ cqlint: {...} }`, `{ settings: { cqlint: {...} } }` or the section itself. */
  applyInitializationOptions(options: unknown): void {
    if (typeof options !== 'object' || options === null) return this.apply(undefined, 'settings');
    const record = options as Record<string, unknown>;
    const nested = record.settings as Record<string, unknown> | undefined;
    if (typeof record.cqlint === 'object') this.apply(record.cqlint, 'settings');
    else if (nested && typeof nested === 'object' && typeof nested.cqlint === 'object')
      this.apply(nested.cqlint, 'settings');
    else this.apply(record, 'settings');
  }

  /**
   * Settings from the client proper, on `initialized` (initializationOptions were only a first guess).
   * Called before `initialised`, so no change event fires: the scan event covers every file.
   */
  async fetchAtStart(): Promise<void> {
    if (!this.supportsConfigurationRequest()) return;
    const raw = await this.fetch().catch((error: unknown) => {
      this.host.log.warn(`cqlint: cannot read settings: ${describeError(error)}`);
      return undefined;
    });
    if (raw !== undefined && raw !== null) this.apply(raw, 'settings');
    await this.fetchScopes().catch((error: unknown) =>
      this.host.log.warn(`cqlint: cannot read folder settings: ${describeError(error)}`),
    );
    this.host.applied();
  }

  /** workspace/didChangeConfiguration. */
  async configurationChanged(params: DidChangeConfigurationParams): Promise<void> {
    if (this.supportsConfigurationRequest()) {
      this.scoped.clear();
      const raw = await this.fetch();
      await this.fetchScopes();
      this.apply(raw, 'settings', true);
    } else if (params.settings && typeof params.settings === 'object') {
      const raw = params.settings as Record<string, unknown>;
      this.apply(raw.cqlint !== undefined ? raw.cqlint : raw, 'settings');
    }
  }

  /** A newly opened document's own settings: re-lint it if they differ from its folder's. */
  documentOpened(filePath: string, uri: string): void {
    if (!this.supportsConfigurationRequest() || !this.host.initialised()) return;
    const engineKey = (s: CqlintSettings): string => JSON.stringify([s.targetOverride, s.rules]);
    const before = engineKey(this.settingsOf(filePath));
    void this.scoped.get(uri).then(() => {
      if (this.host.documentUri(filePath) !== uri || engineKey(this.settingsOf(filePath)) === before) return;
      this.host.documentScopeChanged(filePath);
    });
  }

  documentClosed(uri: string): void {
    this.scoped.delete(uri);
  }

  private apply(raw: unknown, reason: ChangeReason, scopesChanged = false): void {
    const problems: string[] = [];
    const next = parseSettings(raw, problems);
    for (const problem of problems) this.host.log.warn(`cqlint: settings: ${problem}`);
    const changed = scopesChanged || JSON.stringify(next) !== JSON.stringify(this.current);
    this.current = next;
    this.host.applied(changed && this.host.initialised() ? reason : undefined);
  }

  private async fetch(): Promise<unknown> {
    const [section] = await this.host.connection.workspace.getConfiguration([{ section: 'cqlint' }]);
    return section;
  }

  /** Fetches every folder's and open document's settings (after a configuration change or at start). */
  private async fetchScopes(): Promise<void> {
    if (!this.supportsConfigurationRequest()) return;
    const uris = [...this.host.workspaceFolders().map((f) => conv.pathToUri(f)), ...this.host.openUris()];
    await Promise.all(uris.map((uri) => this.scoped.get(uri)));
  }

  private folderUriOf(filePath: string): string | undefined {
    const folder = this.host
      .workspaceFolders()
      .filter((f) => isInside(f, filePath))
      .sort((a, b) => b.length - a.length)[0];
    return folder === undefined ? undefined : conv.pathToUri(folder);
  }
}
