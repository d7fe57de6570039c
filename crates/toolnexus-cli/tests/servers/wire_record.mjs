// wire_record.mjs: what the TypeScript test servers record of the wire, shared by ts_server.mjs and
// ts_http_server.mjs.
//
// record(transport, sent, raw) hooks a connected SDK transport (call it after server.connect, so the SDK's own
// handlers are in place): the id of each elicitation/create the server sends is pushed to `sent`, and the raw
// result the client returns for it (or {error}) is kept in the Map `raw` under that id.
export function record(transport, sent, raw) {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
        if (message.method === 'elicitation/create') sent.push(message.id);
        return send(message, options);
    };
    const onmessage = transport.onmessage;
    transport.onmessage = (message, extra) => {
        if (message.id !== undefined && !message.method && sent.includes(message.id)) {
            raw.set(message.id, message.result ?? { error: message.error });
        }
        return onmessage(message, extra);
    };
}
