// tests/browser/selects_heard.test.mjs — a figure's selects are not announced when its mirror is
// made. Chromium fires AT-SPI selection events for a <select>'s chosen option when the select is
// put into the page, and Orca spoke each of them ("width combo box collapsed 64", …) while the
// reader was elsewhere; web/page/mirror.js keeps a new select inert until the tree has it. Read
// where Orca reads it: Chromium, headed on its own Xvfb display, on a private D-Bus session with
// the AT-SPI bus, and a listener (python3-pyatspi) printing the events Orca would get. Figure 3
// (six selects) is scrolled to and its mirror made: no selection event in the five seconds after;
// then a select's value changed is heard, so the listener does hear them.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { serve, until } from './helpers.mjs';

const listener = `
import json, sys, time, pyatspi
def show(e):
    try: role, name = e.source.getRoleName(), e.source.name
    except Exception: role, name = '?', ''
    print(json.dumps({'t': time.time() * 1000, 'type': e.type, 'on': e.detail1, 'role': role, 'name': name}), flush=True)
for kind in ('object:selection-changed', 'object:state-changed:selected'):
    pyatspi.Registry.registerEventListener(show, kind)
print('{"ready": true}', flush=True)
pyatspi.Registry.start()
`;

const children = [];
const events = [];
let server, browser, env;
function start(command, args, options = {}) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'], ...options });
  children.push(child);
  return child;
}
// The first line `child` prints that matches `pattern`.
const line = (child, pattern) => new Promise((resolve, reject) => {
  let text = '';
  child.stdout.on('data', (chunk) => {
    text += chunk;
    const found = text.match(pattern);
    if (found) resolve(found[1]);
  });
  child.on('exit', (code) => reject(new Error(`${child.spawnargs[0]} exited with ${code}`)));
});

before(async () => {
  server = await serve();
  const xvfb = start('Xvfb', ['-displayfd', '1', '-screen', '0', '1280x900x24', '-nolisten', 'tcp']);
  const display = await line(xvfb, /^(\d+)\n/);
  const bus = start('dbus-daemon', ['--session', '--nofork', '--print-address=1']);
  env = { ...process.env, DISPLAY: `:${display}`, DBUS_SESSION_BUS_ADDRESS: (await line(bus, /^(\S+)\n/)) };
  start('/usr/libexec/at-spi-bus-launcher', ['--launch-immediately'], { env });
  // A screen reader is running, as far as Chromium asks the bus.
  for (const property of ['IsEnabled', 'ScreenReaderEnabled']) {
    await until('the AT-SPI bus', () => new Promise((resolve) => {
      spawn('dbus-send', ['--session', '--print-reply', '--dest=org.a11y.Bus', '/org/a11y/bus',
        'org.freedesktop.DBus.Properties.Set', 'string:org.a11y.Status', `string:${property}`, 'variant:boolean:true'],
      { env, stdio: 'ignore' }).on('exit', (code) => resolve(code === 0));
    }), 10000);
  }
  const listening = start('/usr/bin/python3', ['-c', listener], { env });
  let text = '';
  listening.stdout.on('data', (chunk) => {
    text += chunk;
    const lines = text.split('\n');
    text = lines.pop();
    for (const l of lines) events.push(JSON.parse(l));
  });
  await until('the listener', async () => events.some((e) => e.ready), 10000);
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium', headless: false, env,
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--force-renderer-accessibility',
      '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
});
after(async () => {
  await browser?.close();
  server?.close();
  for (const child of children.reverse()) child.kill();
});

const selectionEvents = (from, to) => events.filter((e) => e.t >= from && e.t <= to && e.type &&
  (e.role === 'menu item' || e.type === 'object:selection-changed'));

test('Figure 3\'s mirror is made without a word from its selects; a select\'s new value is heard', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(server.url);
  await until('the figures to start', () => page.evaluate(() => window.lookback !== undefined), 20000);
  const selects = page.locator('.figure-mirror:has(+ canvas[data-figure="training"]) select');
  assert.equal(await selects.count(), 0, 'Figure 3 has no selects before it is scrolled to');
  await page.waitForTimeout(1000);  // what the page's load fired is over
  const from = Date.now();
  await page.locator('canvas[data-figure="training"]').scrollIntoViewIfNeeded();
  await until('Figure 3\'s selects', async () => (await selects.count()) >= 4, 30000);
  await page.waitForTimeout(5000);  // past the selects' three inert seconds, and two more
  const heard = selectionEvents(from, Date.now());
  assert.deepEqual(heard, [], `selection events while Figure 3's mirror was made: ${JSON.stringify(heard)}`);

  // The same listener hears a select's value change.
  const before = Date.now();
  await page.getByRole('combobox', { name: 'width' }).selectOption({ index: 0 });
  await until('the changed select heard', async () => selectionEvents(before, Date.now()).some((e) => e.role === 'menu item'), 5000);
  await page.close();
});
