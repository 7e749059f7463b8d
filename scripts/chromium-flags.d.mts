// Types for scripts/chromium-flags.mjs (read by playwright.config.ts).
export const CHROMIUM_FLAGS: string[];
