// Workspaces of a schema and application code for the tests that compare or fix them as a whole: each folder of
// fixtures (test/fixtures/embedded/<language>/ with the schema beside them, or the folder's own schema.cql: seed/,
// literal key values in seven languages) and the small application of app-fixtures.ts, under a virtual root.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { hostLanguageOf, loadHostLanguages, type HostLanguage } from '../../server/core/embedded';
import { JAVA, PYTHON, SCHEMA } from './app-fixtures';
import { FIXTURES } from './helpers';

export const WORKSPACE_ROOT = '/virtual/embedded-workspace';

export interface HostWorkspace {
  /** The fixture folder (`java`, `python`, ...) or `app`. */
  name: string;
  /** Every file by its path under WORKSPACE_ROOT: the schema first, then the host files. */
  files: Map<string, string>;
  /** The paths of the host files among them. */
  hosts: string[];
}

/** The fixture workspaces: one per folder (with its own schema.cql, else the shared one), and the app fixtures. */
export function hostWorkspaces(): HostWorkspace[] {
  const schema = readFileSync(join(FIXTURES, 'schema.cql'), 'utf8');
  const out: HostWorkspace[] = [];
  for (const folder of readdirSync(FIXTURES).sort()) {
    const dir = join(FIXTURES, folder);
    if (!statSync(dir).isDirectory()) continue;
    const own = join(dir, 'schema.cql');
    const files = new Map([[`${WORKSPACE_ROOT}/schema.cql`, existsSync(own) ? readFileSync(own, 'utf8') : schema]]);
    const hosts: string[] = [];
    for (const name of readdirSync(dir).sort()) {
      if (!hostLanguageOf(name)) continue;
      const path = `${WORKSPACE_ROOT}/${folder}/${name}`;
      files.set(path, readFileSync(join(dir, name), 'utf8'));
      hosts.push(path);
    }
    out.push({ name: folder, files, hosts });
  }
  const app = new Map([
    [`${WORKSPACE_ROOT}/schema.cql`, SCHEMA],
    [`${WORKSPACE_ROOT}/app/UserDao.java`, JAVA],
    [`${WORKSPACE_ROOT}/app/orders.py`, PYTHON],
  ]);
  out.push({ name: 'app', files: app, hosts: [...app.keys()].slice(1) });
  return out;
}

/** Loads the grammars of every host language the fixtures use. */
export async function loadFixtureLanguages(): Promise<void> {
  const languages = new Set<HostLanguage>();
  for (const workspace of hostWorkspaces()) for (const path of workspace.hosts) languages.add(hostLanguageOf(path)!);
  await loadHostLanguages([...languages]);
}
