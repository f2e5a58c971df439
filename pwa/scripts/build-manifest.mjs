// The build's chunk graph (dist/.vite/manifest.json) and its index.html entry, for the checks run after a build.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const dist = fileURLToPath(new URL('../dist/', import.meta.url));

/** Exits 1 with the tool's name when there is no build to read. */
export function readBuildManifest(tool) {
  const manifestPath = `${dist}.vite/manifest.json`;
  if (!existsSync(manifestPath)) {
    console.error(`${tool}: ${manifestPath} not found — run the build first.`);
    process.exit(1);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry && key.endsWith('index.html'));
  if (!entryKey) {
    console.error(`${tool}: no index.html entry in the manifest.`);
    process.exit(1);
  }
  return { manifest, entryKey };
}
