#!/bin/sh
# Install the Debian packages named on the command line that are missing.
# As root on Debian/Ubuntu: apt-get install; otherwise print the exact
# command and fail.
missing=""
for p in "$@"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: missing packages:$missing" >&2
	echo "deps: this is not a Debian/Ubuntu system; install the equivalents by hand" >&2
	exit 1
fi
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages:$missing" >&2
	echo "deps: run as root:  apt-get update && apt-get install -y$missing" >&2
	exit 1
fi
echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends $missing >&2 || {
	echo "deps: apt-get install failed for:$missing" >&2
	exit 1
}
