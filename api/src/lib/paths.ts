import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repo root is the nearest folder holding pnpm-workspace.yaml, from source (tsx) or the bundle alike. */
function findRepoRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(resolve(dir, 'pnpm-workspace.yaml'))) return dir;
    if (dirname(dir) === dir) throw new Error('Cannot find the repository root (pnpm-workspace.yaml)');
  }
}

export const repoRoot = findRepoRoot(dirname(fileURLToPath(import.meta.url)));
export const migrationsDir = resolve(repoRoot, 'drizzle');
export const pwaDistDir = resolve(repoRoot, 'pwa', 'dist');
