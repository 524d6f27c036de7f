// Types for the parts of code-server.mjs that TypeScript tests import (test/report/browser.test.ts).
export declare const CHROMIUM_ARGS: string[];
export declare const CHROMIUM_PATH: string;
