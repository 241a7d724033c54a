/**
 * Helm chart repositories at `/artifactory/api/helm/{repoKey}` (classic, `index.yaml`); charts
 * as OCI artifacts live in Docker repositories.
 */

/** Most bytes of one chart archive. */
export const HELM_MAX_CHART_BYTES = 64 * 1024 * 1024;

export const HELM_MESSAGES = {
  badChart: "'{path}' is not a valid chart archive: {reason}. Nothing was stored.",
  nameMismatch:
    "'{path}' holds the chart {name} {version}: a chart is deployed as {name}-{version}.tgz. Nothing was stored.",
  republish:
    'The chart {name} {version} is already in this repository with other content: a released chart never changes, deploy a new version.',
  badPath: "'{path}' is not a chart: a Helm repository holds chart archives (.tgz) and their provenance files (.prov).",
  notFound: 'Not Found',
} as const;
