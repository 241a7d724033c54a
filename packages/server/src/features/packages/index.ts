export { registerCatalogueIndexer } from './packages.indexer.js';
export { packagesRoutes } from './packages.routes.js';
