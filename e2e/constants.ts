/** The admin bearer token the e2e server is started with (see playwright.config.ts). */
export const E2E_ADMIN_TOKEN = "e2e-admin-token-0123456789abcdef";
