export const perfScriptImporter: any = { sniff: () => false, id: 'perf-script', label: 'perf-script', extensions: [] };
