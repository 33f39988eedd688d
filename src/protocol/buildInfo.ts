// The extension version, stamped into each bundle by esbuild (`define`); tests compiled by tsc see "dev".
declare const SWARMBOARD_VERSION: string | undefined;

export const extensionVersion: string = typeof SWARMBOARD_VERSION === "string" ? SWARMBOARD_VERSION : "dev";
