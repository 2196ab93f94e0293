// web/page/serve.mjs — serves a built site folder on 127.0.0.1 for reading and for the browser tests.
//
//   node web/page/serve.mjs build/site        PORT=8080 by default; PORT=0 picks a free port
//
// Prints the URL once listening; with LOOKBACK_SERVE_LOG=1, then one line per request, its status,
// method and path ("404 GET /favicon.ico"), for the tests to read. Only GET and HEAD; nothing
// outside the folder is served.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const root = fs.realpathSync(path.resolve(process.argv[2] ?? 'build/site'));
const port = Number(process.env.PORT ?? 8080);
const logging = process.env.LOOKBACK_SERVE_LOG === '1';

const types = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
};

function reply(response, status, text) {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  response.end(`${text}\n`);
}

// The file a URL path names inside root, or null when it would leave root.
function resolveInside(urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  let file = path.resolve(root, `.${decoded}`);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
  if (!fs.existsSync(file)) return file;
  const real = fs.realpathSync(file);  // a link may not lead outside either
  return real === root || real.startsWith(root + path.sep) ? real : null;
}

const server = http.createServer((request, response) => {
  if (logging) response.on('finish', () => console.log(`${response.statusCode} ${request.method} ${request.url}`));
  if (request.method !== 'GET' && request.method !== 'HEAD') return reply(response, 405, 'Method not allowed');
  // The path as sent, without its query: parsed as a URL, "//x" would name a host, not a path.
  const urlPath = request.url.split('?', 1)[0];
  if (!urlPath.startsWith('/')) return reply(response, 400, 'Bad request');
  const file = resolveInside(urlPath);
  if (file === null) return reply(response, 403, 'Forbidden');
  fs.stat(file, (error, stats) => {
    if (error || !stats.isFile()) return reply(response, 404, 'Not found');
    response.writeHead(200, {
      'Content-Type': types[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      'Content-Length': stats.size,
      'Cache-Control': 'no-cache',
    });
    if (request.method === 'HEAD') return response.end();
    fs.createReadStream(file).pipe(response);
  });
});

server.listen(port, '127.0.0.1', () => {
  console.log(`Serving ${root} at http://127.0.0.1:${server.address().port}/`);
});
