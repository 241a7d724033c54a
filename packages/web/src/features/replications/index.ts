export { useReplications } from './api/replications';
export { RunStatusTag } from './components/run-output';
