/**
 * What an e-mail address must look like, everywhere (forms, the API, the Login page, the CLI). Kept in a module of its
 * own so the Login page's small bundle can use it.
 */
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
