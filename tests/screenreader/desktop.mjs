// tests/screenreader/desktop.mjs — a small desktop of its own for a real screen reader: an X server
// (Xvfb), a session bus, a window manager (openbox: a browser window must be the active one, or
// Orca ignores its events), the accessibility bus, and Debian's Orca, its speech going through
// speech-dispatcher and espeak-ng to a null ALSA device. Everything lives in a temporary HOME, so
// nothing of the machine's own session or settings is read or changed.
//
// What Orca says is read from its debug log: every utterance is a line "SPEECH OUTPUT: '…'"
// (orca_logged.py logs at INFO level only, which is fast). Keys are real X key events (xdotool,
// through XTEST), as a reader's keyboard sends them: Orca sees them as it would on a desktop.
//
// desktop = { env, display, said(from) (the utterances since mark `from`), mark(),
//             hears(what, test, from, timeout), key(...names), click(x, y), close() }
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startXvfb, until } from '../engines/helpers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);

// Each process started here runs in a process group of its own, ended with the group (the
// accessibility bus launcher starts a bus and the registry; Orca starts speech-dispatcher).
const groups = new Set();
process.on('exit', () => { for (const pid of groups) { try { process.kill(-pid, 'SIGKILL'); } catch { /* gone */ } } });
function start(command, args, env, logFile) {
  const out = fs.openSync(logFile, 'a');
  const child = spawn(command, args, { env, detached: true, stdio: ['ignore', out, out] });
  groups.add(child.pid);
  child.on('exit', () => fs.closeSync(out));
  return child;
}
async function end(child) {
  if (!groups.delete(child.pid)) return;
  try { process.kill(-child.pid, 'SIGTERM'); } catch { return; }
  const gone = () => { try { process.kill(-child.pid, 0); return false; } catch { return true; } };
  for (let i = 0; i < 30 && !gone(); ++i) await new Promise((resolve) => setTimeout(resolve, 100));
  if (!gone()) process.kill(-child.pid, 'SIGKILL');
}

export async function startDesktop(logs) {
  fs.mkdirSync(logs, { recursive: true });
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'lookback-orca-'));
  const runtime = path.join(home, 'run');
  fs.mkdirSync(runtime, { mode: 0o700 });
  const log = (name) => path.join(logs, `orca-${name}.log`);
  const xvfb = await startXvfb(log('xvfb'));
  const env = {
    PATH: process.env.PATH, HOME: home, XDG_RUNTIME_DIR: runtime, DISPLAY: xvfb.display, LANG: 'C.UTF-8',
    XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local/share'),
    XDG_CACHE_HOME: path.join(home, '.cache'), GSETTINGS_BACKEND: 'memory',
  };
  const children = [];
  try {
    // The session bus, which starts no services of its own (the browsers asked it for the desktop
    // portals, which mounted a file system in the temporary HOME); its address is its first line out.
    const busConfig = path.join(home, 'session-bus.conf');
    fs.writeFileSync(busConfig, `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:dir=${runtime}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>\n`);
    const bus = spawn('dbus-daemon', [`--config-file=${busConfig}`, '--nofork', '--print-address=1'], { env, detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
    groups.add(bus.pid);
    children.push(bus);
    env.DBUS_SESSION_BUS_ADDRESS = await new Promise((resolve, reject) => {
      let text = '';
      bus.stdout.on('data', (chunk) => { text += chunk; if (text.includes('\n')) resolve(text.split('\n')[0].trim()); });
      bus.on('exit', (code) => reject(new Error(`dbus-daemon exited with ${code}`)));
    });
    children.push(start('openbox', [], env, log('openbox')));
    children.push(start('/usr/libexec/at-spi-bus-launcher', ['--launch-immediately'], env, log('atspi')));
    // speech-dispatcher opens PulseAudio by default, and with none Orca blocked after its first
    // utterance: ALSA's null device instead.
    fs.writeFileSync(path.join(home, '.asoundrc'), 'pcm.!default { type null }\n');
    fs.mkdirSync(path.join(env.XDG_CONFIG_HOME, 'speech-dispatcher'), { recursive: true });
    const speechd = fs.readFileSync('/etc/speech-dispatcher/speechd.conf', 'utf8');
    fs.writeFileSync(path.join(env.XDG_CONFIG_HOME, 'speech-dispatcher/speechd.conf'), `${speechd}\nAudioOutputMethod "alsa"\n`);
    // Started here, in the foreground (-s), rather than spawned by Orca as a daemon that outlives it.
    const socket = path.join(runtime, 'speech-dispatcher/speechd.sock');
    children.push(start('speech-dispatcher', ['-s', '-t', '0', '-c', 'unix_socket', '-S', socket], env, log('speechd')));
    await until('speech-dispatcher to listen', () => fs.existsSync(socket), 30000, 50);
    // /usr/bin/python3: pyatspi is Debian's, not in another python3 that may be first on the PATH.
    const orcaLog = log('speech');
    fs.writeFileSync(orcaLog, '');
    children.push(start('/usr/bin/python3', [path.join(here, 'orca_logged.py'), orcaLog], env, log('stderr')));

    const lines = () => fs.readFileSync(orcaLog, 'utf8').split('\n');
    // Every utterance: SPEECH OUTPUT: 'text' followed by the voice's settings. A text with a line
    // break in it (a field's text) goes on over the log's next lines, which start without a time.
    const said = (from = 0) => lines().slice(from)
      .reduce((records, line) => {
        if (/^\d\d:\d\d:\d\d\.\d+ - /.test(line) || !records.length) records.push(line);
        else records[records.length - 1] += `\n${line}`;
        return records;
      }, [])
      .map((record) => record.match(/ - SPEECH OUTPUT: '([^]*)'(?:\s?\[?\{[^]*)?$/)?.[1])
      .filter((text) => text !== undefined);
    const mark = () => lines().length - 1;
    const desktop = {
      env, display: xvfb.display, said, mark,
      // Waits until an utterance since `from` passes `test` (a string it holds, or a function);
      // returns it. Orca lags behind the page on a loaded machine: the timeouts are long.
      async hears(what, test, from, timeout = 30000) {
        const ok = typeof test === 'string' ? (text) => text.includes(test) : test;
        let heard;
        await until(`Orca to say ${what}`, () => (heard = said(from).find(ok)) !== undefined, timeout, 100)
          .catch((error) => { throw new Error(`${error.message}; it said: ${JSON.stringify(said(from).slice(-12))}`); });
        return heard;
      },
      key: (...names) => run('xdotool', ['key', '--clearmodifiers', ...names], { env }),
      click: (x, y) => run('xdotool', ['mousemove', String(Math.round(x)), String(Math.round(y)), 'click', '1'], { env }),
      async close() {
        for (const child of children.reverse()) await end(child);
        await xvfb.close();
        fs.rmSync(home, { recursive: true, force: true });
      },
    };
    await desktop.hears('that it is on', 'Screen reader on.', 0, 60000);
    return desktop;
  } catch (error) {
    for (const child of children.reverse()) await end(child);
    await xvfb.close();
    throw error;
  }
}
