/** What other features use of security scanning: they import this module only. */
export { SecurityOverviewCard } from './components/security-overview';
