// SPDX-License-Identifier: Apache-2.0
// Publishes bytes with the official NATS JavaScript client, as any peer on the server could:
//   node publish.js SERVER SUBJECT FILE   publishes FILE's bytes on SUBJECT once and flushes
// Exits 1 with the client's error on stderr when anything fails.
"use strict";

const fs = require("fs");
const { connect } = require("nats");

async function main() {
    const [server, subject, file] = process.argv.slice(2);
    if (!file)
        throw new Error("usage: publish.js SERVER SUBJECT FILE");
    const nc = await connect({ servers: server });
    try {
        nc.publish(subject, fs.readFileSync(file));
        await nc.flush();
    } finally {
        await nc.close();
    }
}

main().catch((error) => {
    console.error(`publish.js: ${error.message}`);
    process.exit(1);
});
