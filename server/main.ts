// `npm start`: the production server, configured by its environment alone (server/config.ts).
import { runServer } from "./run-server";

void runServer();
