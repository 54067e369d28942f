// SPDX-License-Identifier: Apache-2.0
// The official NATS JavaScript client's object store, driven from the interoperability tests:
//   node objectstore.js put SERVER BUCKET NAME FILE   stores FILE, prints the meta record as JSON
//   node objectstore.js get SERVER BUCKET NAME FILE   reads the object (the client checks its
//                                                      digest), writes it to FILE, prints its meta
//   node objectstore.js forge SERVER BUCKET NAME FILE publishes FILE's bytes as the object's meta
//                                                      record, as anyone who may write to the bucket
//                                                      could, with no check of what they say
// Exits 1 with the client's error on stderr when anything fails.
"use strict";

const fs = require("fs");
const { connect } = require("nats");

// The client's ObjectInfo keeps the meta record in an `info` member.
function metaRecord(info) {
    return info.info ?? info;
}

async function readAll(stream) {
    const parts = [];
    const reader = stream.getReader();
    for (;;) {
        const { done, value } = await reader.read();
        if (done)
            break;
        parts.push(Buffer.from(value));
    }
    return Buffer.concat(parts);
}

async function main() {
    const [command, server, bucket, name, file] = process.argv.slice(2);
    if (!["put", "get", "forge"].includes(command) || !file)
        throw new Error("usage: objectstore.js put|get|forge SERVER BUCKET NAME FILE");
    const nc = await connect({ servers: server });
    try {
        if (command === "forge") {
            // The meta subject names the object in URL-safe base64 with its padding, as the clients do.
            const encoded = Buffer.from(name).toString("base64").replace(/\+/g, "-").replace(/\//g, "_");
            const subject = `$O.${bucket}.M.${encoded}`;
            await nc.jetstream().publish(subject, fs.readFileSync(file));
            return;
        }
        const os = await nc.jetstream().views.os(bucket);
        if (command === "put") {
            const info = await os.putBlob({ name }, fs.readFileSync(file));
            console.log(JSON.stringify(metaRecord(info)));
        } else {
            const result = await os.get(name);
            if (result === null)
                throw new Error(`no object ${name} in ${bucket}`);
            const data = await readAll(result.data);
            // Rejects when the chunks do not match the meta record's digest.
            await result.error;
            fs.writeFileSync(file, data);
            console.log(JSON.stringify(metaRecord(result.info)));
        }
    } finally {
        await nc.close();
    }
}

main().catch((error) => {
    console.error(`objectstore.js: ${error.message}`);
    process.exit(1);
});
