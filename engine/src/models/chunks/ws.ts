/** The `ws` package, a chunk of its own: loaded by the first connection to OpenClaw's gateway. */
export { default as WebSocket } from 'ws';
