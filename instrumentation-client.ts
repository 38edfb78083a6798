import { z } from "zod";

// Runs in the browser before the app's own code. zod compiles object parsers with
// `new Function` when it may, and probing for that trips our Content-Security-Policy
// (no 'unsafe-eval'): the probe is caught, but the browser still reports a violation.
// jitless skips the probe; the interpreted parsers are fast enough for the UI's forms.
z.config({ jitless: true });
