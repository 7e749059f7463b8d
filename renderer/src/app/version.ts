declare const __FLAMELENS_VERSION__: string | undefined;

/** The app's version (package.json), set by the build; "development" where no build set it. */
export const APP_VERSION: string = typeof __FLAMELENS_VERSION__ === 'string' ? __FLAMELENS_VERSION__ : 'development';
