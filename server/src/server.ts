/** The language server's entry point: stdio or IPC as the client chose (`--stdio`, `--node-ipc`), and the disk. */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { NodeFileSystem } from './nodeFileSystem';
import { startServer } from './startServer';

const connection = createConnection(ProposedFeatures.all);
const fileSystem = new NodeFileSystem();
startServer(connection, fileSystem);
