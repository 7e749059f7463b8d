export const zeroExImporter: any = { sniff: () => false, id: 'zeroex', label: 'zeroex', extensions: [] };
