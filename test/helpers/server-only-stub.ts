// "server-only" throws outside React's server build; tests run server code directly.
export {};
