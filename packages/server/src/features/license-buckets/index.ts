export { licenseBucketsRoutes } from './license-buckets.routes.js';
