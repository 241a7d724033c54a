export { logKeys } from './api/keys';
