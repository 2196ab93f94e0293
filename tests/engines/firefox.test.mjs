// tests/engines/firefox.test.mjs — the smoke set (smoke.mjs) in Debian's Firefox ESR, driven over
// WebDriver BiDi by puppeteer-core, in a window on its own Xvfb display.
import { firefox } from './helpers.mjs';
import { smokeSet } from './smoke.mjs';

smokeSet('Firefox', (display) => firefox(display));
