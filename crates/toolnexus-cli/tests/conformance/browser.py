#!/usr/bin/env python3
"""browser.py: the person's browser in the conformance runs, named by the adapter's --browser.

`toolnexus` runs it with the authorization link as its last argument once the sign-in is
consented to. It opens the link and follows the redirects, so that the authorization server's
answer reaches the CLI's loopback listener, as a browser would after the person signed in (the
suite's authorization server grants at once). It exits 1 when the link cannot be opened.
"""

import sys
import urllib.error
import urllib.request


def main():
    url = sys.argv[-1]
    # No proxy from the environment: every address here is on this machine.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=30) as response:
            response.read()
    except urllib.error.HTTPError as error:
        print(f"browser.py: the link answered HTTP {error.code}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"browser.py: the link could not be opened: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
