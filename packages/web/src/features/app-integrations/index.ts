/** What other features use of the application integrations feature: they import this module only. */
export { AuthorizedAppsCard } from './components/authorized-apps-card';
