#!/bin/sh
# Makes sure the Debian packages named in the arguments are there. As root with apt-get, the
# missing ones are installed; otherwise (or when installing fails) one line names them and
# the script still exits 0, so that what does not need them goes on.
#
#   sh scripts/debian_packages.sh PACKAGE[:COMMAND] ...
#
# With a COMMAND, the package counts as present when that command is on PATH; without, when
# dpkg lists it as installed.
set -eu

missing=""
for item in "$@"; do
    package=${item%%:*}
    command=${item#*:}
    if [ "$command" != "$item" ]; then
        if command -v "$command" >/dev/null 2>&1; then
            continue
        fi
    elif dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed'; then
        continue
    fi
    missing="$missing $package"
done

if [ -z "$missing" ]; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    # $missing is a list of words: split on purpose.
    # shellcheck disable=SC2086
    if apt-get update && apt-get install -y $missing; then
        exit 0
    fi
    echo "could not install Debian packages:$missing; going on without them"
else
    echo "missing Debian packages:$missing (as root: apt-get install$missing); going on without them"
fi
