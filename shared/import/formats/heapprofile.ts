export const heapprofileImporter: any = { sniff: () => false, id: 'heapprofile', label: 'heapprofile', extensions: [] };
