// The flags Debian's Chromium runs with in this project's tests and benchmarks: no sandbox (CI
// runs as root), no GPU, and nothing that reaches the network or shows first-run pages.
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
