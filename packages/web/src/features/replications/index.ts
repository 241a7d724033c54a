export { useReplications } from './api/replications';
export { RunStatusTag } from './pages/replications-page';
