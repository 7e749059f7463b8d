export const traceEventsImporter: any = { sniff: () => false, id: 'trace-events', label: 'trace-events', extensions: [] };
