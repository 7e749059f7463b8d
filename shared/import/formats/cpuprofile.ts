export const cpuprofileImporter: any = { sniff: () => false, id: 'cpuprofile', label: 'cpuprofile', extensions: [] };
