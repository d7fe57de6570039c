// oidc_device.mjs: an OpenID Certified authorization server, `oidc-provider`, set up for the
// live test of `toolnexus call --url … --grant device-code` (tests/device.test.mjs): the
// device authorization grant (RFC 8628), resource indicators (RFC 8707), PKCE, token
// introspection (RFC 7662), Bearer tokens (DPoP off: the resource server takes no other), and
// its own development pages for a person to enter the code, sign
// in and consent.
//
// `node oidc_device.mjs` binds 127.0.0.1 on a free port and, once it serves, prints one JSON line
// on standard output: {"issuer", "client_id", "introspection_client_id",
// "introspection_client_secret"}. `client_id` is a public client registered for the device
// grant; the introspection client is for the resource server (oidc_resource.py), which checks
// each token here. A resource indicator is accepted when it is an MCP server on this machine
// (`http://127.0.0.1:PORT/mcp`): the token is issued for it alone, with the scope `mcp:tools`.
// SIGTERM or SIGINT stops it.
//
// The device authorization answer carries `interval: 1`, so that the client polls every second
// and the test stays short; the provider's default says nothing, which means 5 seconds.
//
// Demonstration only: everything is kept in memory, the keys are the provider's development
// keys, and its development pages accept any username and password.

import crypto from 'node:crypto';
import http from 'node:http';

import Provider from 'oidc-provider';

const CLIENT_ID = 'toolnexus-device';
const INTROSPECTION_CLIENT_ID = 'mcp-resource';
const SCOPE = 'mcp:tools';
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** The resources this server issues tokens for: an MCP server on this machine. */
const RESOURCE = /^http:\/\/127\.0\.0\.1:\d{1,5}\/mcp$/;

function isResource(indicator) {
  return typeof indicator === 'string' && RESOURCE.test(indicator);
}

async function main() {
  const introspectionSecret = crypto.randomBytes(24).toString('base64url');
  // Bound first: the issuer is the address bound.
  const server = http.createServer();
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  const issuer = `http://127.0.0.1:${port}/`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_name: 'toolnexus',
        token_endpoint_auth_method: 'none',
        grant_types: [DEVICE_GRANT, 'refresh_token'],
        response_types: [],
        redirect_uris: [],
      },
      {
        client_id: INTROSPECTION_CLIENT_ID,
        client_secret: introspectionSecret,
        grant_types: [],
        response_types: [],
        redirect_uris: [],
      },
    ],
    scopes: ['openid', 'offline_access', SCOPE],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: true },
      deviceFlow: { enabled: true },
      // The resource server (the Python SDK's) takes Bearer tokens alone: no DPoP here.
      dPoP: { enabled: false },
      introspection: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (ctx, client, oneOf) => (oneOf ? oneOf[0] : undefined),
        useGrantedResource: () => true,
        getResourceServerInfo: (ctx, indicator) => {
          if (!isResource(indicator)) {
            throw new Provider.errors.InvalidTarget(`${indicator} is not a resource of this server`);
          }
          return { scope: SCOPE, audience: indicator, accessTokenFormat: 'opaque', accessTokenTTL: 600 };
        },
      },
    },
  });
  provider.on('device_authorization.success', (ctx, body) => {
    body.interval = 1;
  });
  server.on('request', provider.callback());
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdout.write(
    `${JSON.stringify({
      issuer,
      client_id: CLIENT_ID,
      introspection_client_id: INTROSPECTION_CLIENT_ID,
      introspection_client_secret: introspectionSecret,
    })}\n`,
  );
}

main().catch((error) => {
  process.stderr.write(`oidc_device.mjs: ${error.message}\n`);
  process.exit(1);
});
