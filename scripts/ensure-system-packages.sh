#!/usr/bin/env bash
# Installs the Debian packages the test suite needs when they are missing: Chromium for the
# browser tests, twine for the Python index tests, Maven with the plugins the Maven tests run
# (from Debian's own Maven repository, /usr/share/maven-repo), skopeo and the CNCF distribution
# registry for the OCI tests, curl for the snippets Set Me Up shows, nginx for the cluster test,
# PostgreSQL for the second database engine, Go, Ruby (gem and bundler), dnf and the rpm tools for
# the formats of the same names, OpenSSH's client for the SSH server, OpenLDAP's
# server for directory sign-in. Cargo is the one rustup installs (Debian's predates sparse indexes).
# Needs root (or passwordless sudo).
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
# the Python index is proven with twine (uploads); pip comes with Python
command -v twine >/dev/null 2>&1 || missing+=(twine)
command -v mvn >/dev/null 2>&1 || missing+=(maven)
for plugin in deploy install dependency; do
  [ -d /usr/share/maven-repo/org/apache/maven/plugins/maven-$plugin-plugin ] || missing+=(libmaven-$plugin-plugin-java)
done
# the dependency plugin's own dependencies name junit from Debian's repository
[ -d /usr/share/maven-repo/junit/junit ] || missing+=(junit4)
command -v skopeo >/dev/null 2>&1 || missing+=(skopeo)
command -v curl >/dev/null 2>&1 || missing+=(curl)
[ -x /usr/bin/docker-registry ] || missing+=(docker-registry)
# the cluster test puts Debian's nginx in front of three nodes
[ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v go >/dev/null 2>&1 || missing+=(golang-go)
command -v gem >/dev/null 2>&1 || missing+=(ruby)
command -v bundle >/dev/null 2>&1 || missing+=(ruby-bundler)
command -v dnf >/dev/null 2>&1 || missing+=(dnf)
command -v rpmbuild >/dev/null 2>&1 || missing+=(rpm)
# the go command's test reaches Arca over TLS (a certificate made with openssl); rpmsign signs with gpg
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
command -v gpg >/dev/null 2>&1 || missing+=(gpg)
# the SSH server's test signs in with OpenSSH's client and keys made by ssh-keygen; the key store
# test reads stores made by the JDK's keytool (Maven brings the JRE that has it)
command -v ssh >/dev/null 2>&1 || missing+=(openssh-client)
command -v keytool >/dev/null 2>&1 || missing+=(default-jre-headless)
# the directory sign-in tests start their own OpenLDAP server (the package's own is left stopped)
[ -x /usr/sbin/slapd ] || missing+=(slapd)
if [ "${1:-}" = "--with-postgres" ] && ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
  missing+=(postgresql)
fi
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo -n"
echo "Installing Debian packages: ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
