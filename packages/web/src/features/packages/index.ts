/** What other features use of the packages feature: they import this module only. */
export { Readme } from './components/readme';
export { SecurityTab } from './components/security-card';
