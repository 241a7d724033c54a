/** What other features use of the settings feature: they import this module only. */
export { useProxies } from './api/proxies';
export { ProxySelect } from './components/proxy-select';
