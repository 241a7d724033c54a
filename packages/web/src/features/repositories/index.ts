/*
 * The repositories feature's pages are reached through its routes (routes.ts); the repository
 * list other features read is shared from lib/queries/repositories.
 */
export {};
