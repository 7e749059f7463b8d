/**
 * Ready-made filters for the APM agents users compare against. Each is a search query in the
 * app's language (see matcher.ts), matched against function names and file paths.
 */
export interface AgentPreset {
  id: string;
  label: string;
  query: string;
}

export const AGENT_PRESETS: readonly AgentPreset[] = [
  { id: 'dd-trace', label: 'Datadog (dd-trace)', query: '/node_modules\\/(dd-trace|@datadog)\\//' },
  { id: 'dynatrace', label: 'Dynatrace', query: '/node_modules\\/@dynatrace\\//' },
  { id: 'nsolid', label: 'N|Solid', query: '/nsolid/i' },
  { id: 'newrelic', label: 'New Relic', query: '/node_modules\\/(newrelic|@newrelic)\\//' },
  { id: 'elastic', label: 'Elastic APM', query: '/node_modules\\/(elastic-apm-node|@elastic\\/apm)/' },
  { id: 'opentelemetry', label: 'OpenTelemetry', query: '/node_modules\\/@opentelemetry\\//' },
  { id: 'sentry', label: 'Sentry', query: '/node_modules\\/@sentry\\//' },
];
