// tests/engines/webkit.test.mjs — the smoke set (smoke.mjs) in WebKitGTK, Safari's engine: Debian's
// MiniBrowser driven by WebKitWebDriver (W3C WebDriver, through selenium-webdriver), in a window
// on its own Xvfb display.
import { webkit } from './helpers.mjs';
import { smokeSet } from './smoke.mjs';

smokeSet('WebKit', (display) => webkit(display));
