/** What other features use of the builds feature: they import this module only. */
export { isoOf, useBuildNames, useProjectBuilds } from './api/builds';
export { ArtifactBuildsTab } from './components/artifact-builds-tab';
export { BuildPatternsPreview } from './components/build-patterns-preview';
