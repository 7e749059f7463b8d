// Stands in for @stdlib/assert-has-generator-support in the window's build (electron.vite.config.ts).
// That package tells whether generator functions exist by compiling one from a string, which the
// app's CSP refuses (no eval): every start logged a refused eval for each copy loaded. Every engine
// the window runs in has generators, so the answer is known.
module.exports = function hasGeneratorSupport() {
  return true;
};
