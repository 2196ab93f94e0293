// web/page/offline.mjs — the site's service worker, versioned by the build: writes
// service_worker.js into an assembled site folder, the code of web/page/service_worker.js after
// the paths of every other file of the site (those kept on demand apart, each with its own hash)
// and a hash of their names and contents. Any change to
// any file gives a new version; nobody numbers builds by hand.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const source = path.join(path.dirname(fileURLToPath(import.meta.url)), 'service_worker.js');
export const workerFile = 'service_worker.js';

// Paths relative to `folder`, with '/' between folders, sorted.
function filesIn(folder, under = '') {
  return fs.readdirSync(path.join(folder, under), { withFileTypes: true }).flatMap((entry) => {
    const relative = under ? `${under}/${entry.name}` : entry.name;
    return entry.isDirectory() ? filesIn(folder, relative) : [relative];
  }).sort();
}

// Files kept only once the page has fetched them, not when the site is installed: the fonts for
// a reader's task, which most readers never need (4.5 MB).
const onDemand = (file) => file.startsWith('fonts/');

const digest = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

// Writes `site`/service_worker.js and returns the version it carries.
export function writeServiceWorker(site) {
  const files = filesIn(site).filter((file) => file !== workerFile);
  const hash = createHash('sha256');
  const kept = {};  // an on-demand file's path → its own hash, so a copy outlives builds that keep it
  for (const file of files) {
    const bytes = fs.readFileSync(path.join(site, file));
    hash.update(`${file}\n${bytes.length}\n`).update(bytes);
    if (onDemand(file)) kept[file] = digest(bytes);
  }
  const version = hash.digest('hex').slice(0, 16);
  const constants = `'use strict';\n// Written by web/page/offline.mjs for this build.\nconst siteVersion = '${version}';\n` +
    `const siteFiles = ${JSON.stringify(files.filter((file) => !onDemand(file)), null, 1)};\n` +
    `const onDemandFiles = ${JSON.stringify(kept, null, 1)};\n\n`;
  fs.writeFileSync(path.join(site, workerFile), constants + fs.readFileSync(source, 'utf8'));
  return version;
}
