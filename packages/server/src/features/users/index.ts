export { usersRestRoutes, usersRoutes } from './users.routes.js';
export { checkPassword, getUser } from './users.service.js';
