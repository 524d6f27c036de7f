// `npm run format`: Prettier (.prettierrc.json: 120 columns) over the code we write; .prettierignore says which
// (test data, generated files and docs keep their bytes). `npm run format -- --check` only checks, as CI does:
// Prettier itself would write when given both --write and --check.
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const check = args.includes('--check');
const paths = args.filter((arg) => arg !== '--check');
const run = spawnSync('prettier', [check ? '--check' : '--write', ...(paths.length > 0 ? paths : ['.'])], {
  stdio: 'inherit',
  shell: process.platform === 'win32',
});
if (run.error) console.error(`npm run format: ${run.error.message}`);
process.exit(run.status ?? 2);
