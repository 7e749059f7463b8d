export const pprofImporter: any = { sniff: () => false, id: 'pprof', label: 'pprof', extensions: [] };
