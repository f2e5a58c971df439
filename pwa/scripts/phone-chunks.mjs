// Every script a subscriber's screen can load is in the service worker's precache, so the app opens offline: the
// build puts chunks made only of admin code in assets/admin/, which the precache leaves out (vite.config.ts, 0078,
// 0241). Reads dist/.vite/manifest.json, follows every import from the entry except into the admin console's routes,
// and exits 1 if a chunk it reaches sits in assets/admin/.
import { readBuildManifest } from './build-manifest.mjs';

const ADMIN_FOLDER = 'assets/admin/';
const { manifest, entryKey } = readBuildManifest('phone-chunks');

const isAdminRoute = (key) => key.startsWith('src/features/admin/');
/** Chunk key → the chain of keys that reached it from the entry, for the message. */
const reached = new Map([[entryKey, [entryKey]]]);
const queue = [entryKey];
while (queue.length > 0) {
  const key = queue.shift();
  const chunk = manifest[key];
  const next = [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? []).filter((dep) => !isAdminRoute(dep))];
  for (const dep of next) {
    if (reached.has(dep) || !manifest[dep]) continue;
    reached.set(dep, [...reached.get(key), dep]);
    queue.push(dep);
  }
}

const missing = [...reached].filter(([key]) => manifest[key].file.startsWith(ADMIN_FOLDER));
for (const [key, chain] of missing)
  console.error(`phone-chunks: ${manifest[key].file} is not precached but a phone reaches it: ${chain.join(' → ')}`);
console.log(
  `phone-chunks: ${reached.size} chunks a subscriber's screens can load, ${missing.length} outside the precache`,
);
process.exit(missing.length > 0 ? 1 : 0);
