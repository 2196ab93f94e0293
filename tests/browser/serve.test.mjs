// tests/browser/serve.test.mjs — the site's server (web/page/serve.mjs) answers strange request
// paths with a refusal, never serves what lies outside its folder, and keeps serving afterwards.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serve } from './helpers.mjs';

let server, folder, port;
before(async () => {
  const top = fs.mkdtempSync(path.join(os.tmpdir(), 'lookback-serve-'));
  fs.writeFileSync(path.join(top, 'secret.txt'), 'outside');
  folder = path.join(top, 'site');
  fs.mkdirSync(path.join(folder, 'sub'), { recursive: true });
  fs.writeFileSync(path.join(folder, 'index.html'), '<p>index</p>');
  fs.writeFileSync(path.join(folder, 'sub', 'index.html'), '<p>sub</p>');
  fs.writeFileSync(path.join(folder, 'a b.txt'), 'spaced');
  fs.symlinkSync(path.join(top, 'secret.txt'), path.join(folder, 'link.txt'));
  server = await serve(folder);
  port = Number(new URL(server.url).port);
});
after(() => server.close());

// A raw request: node's http client sends the path as given (fetch would normalise it).
const request = (target, method = 'GET') => new Promise((resolve, reject) => {
  const req = http.request({ host: '127.0.0.1', port, path: target, method }, (response) => {
    let body = '';
    response.on('data', (chunk) => { body += chunk; });
    response.on('end', () => resolve({ status: response.statusCode, type: response.headers['content-type'], body }));
  });
  req.on('error', reject);
  req.end();
});

test('files inside the folder are served, a folder by its index.html', async () => {
  assert.deepEqual(await request('/'), { status: 200, type: 'text/html; charset=utf-8', body: '<p>index</p>' });
  assert.equal((await request('/sub/')).body, '<p>sub</p>');
  assert.equal((await request('//')).body, '<p>index</p>');  // a path, not a host
  assert.equal((await request('/a%20b.txt?x=1')).body, 'spaced');
  const head = await request('/', 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.body, '');
});

test('strange paths are refused with a status, and the server goes on serving', async () => {
  const refusals = {
    '//secret.txt': 404,           // a path, not a host
    '/..%2fsecret.txt': 403,       // an encoded step out of the folder
    '/sub/..%2f..%2fsecret.txt': 403,
    '/link.txt': 403,              // a link leading outside
    '/%': 403,                     // not a valid encoding
    '/%00': 403,
    '/missing.js': 404,
    '*': 400,                      // not a path
    'http://example.com/': 400,
  };
  for (const [target, status] of Object.entries(refusals)) {
    const answer = await request(target);
    assert.equal(answer.status, status, target);
    assert.doesNotMatch(answer.body, /outside/, target);
  }
  assert.equal((await request('/', 'POST')).status, 405);
  assert.equal((await request('/')).status, 200);
});
