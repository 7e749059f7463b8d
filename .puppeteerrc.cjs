// memlab, the heap snapshot tests' oracle, depends on puppeteer, whose install would download a
// browser build; Flamelens never drives puppeteer, so none is fetched (the same as
// PUPPETEER_SKIP_DOWNLOAD=1), and `npm install` works where only the npm registry is reachable.
module.exports = { skipDownload: true };
