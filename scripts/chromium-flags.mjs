// The flags Debian's Chromium runs with in this project's tests and benchmarks: no sandbox (CI
// runs as root), no GPU, nothing that reaches the network or shows first-run pages, and no omnibox
// popup page. Headless Chromium loads the omnibox's popup (a page of its own, in a renderer of its
// own) at start, and its animation then keeps one core busy for seconds: on two cores, half the
// machine taken from the page being measured. The app window `npm start` opens has no such page.
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup',
];
