export const VERSION = "2026.10.7";
export const SERVICE_VERSION = "2026-10-07";
