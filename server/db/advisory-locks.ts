// Every PostgreSQL advisory-lock key podwatch takes, in one place: the keys share one space with
// any other application on the database, and two roles on one key would exclude each other (or,
// worse, one would think it holds the other's lease). Values never change: nodes of different
// versions running side by side during an upgrade must agree on them.
export const advisoryLocks = {
  /** Migrations: processes starting together take turns (session lock, released when done). */
  migrations: 7_263_424,
  /** The timekeeper lease: deadlines, the cadence watchdog, budget checks (server/deadlines). */
  timekeeper: 7_263_425,
  /** The demo lease: one node plays the demo pod (server/play-demo.ts). */
  demo: 7_263_426,
  /** The first admin on an empty database (transaction lock, server/access/bootstrap-admin.ts). */
  bootstrapAdmin: 7_263_427,
  /** Importing an upgraded installation's blob files into the database (server/blobs/import-folder-blobs.ts). */
  blobImport: 7_263_428,
  /** Claiming due notifications: nodes take turns, so the caps per person and device hold (server/notify/claim-notifications.ts). */
  notificationClaims: 7_263_435,
} as const;
