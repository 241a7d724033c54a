/** What other features use of the deployments feature: they import this module only. */
export { useDeployments } from './api/deployments';
export { DeploymentStatusTag, UNITS } from './components/deployment-status-tag';
