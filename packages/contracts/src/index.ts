export * from './auth.js';
export * from './errors.js';
export * from './license.js';
export * from './system.js';
export * from './users.js';
export * from './repositories.js';
export * from './artifacts.js';
export * from './ui.js';
