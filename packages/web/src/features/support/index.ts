export { supportKeys } from './api/keys';
