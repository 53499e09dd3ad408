#!/bin/sh
# Creates TLS material for tests and the demo in DIR (overwriting earlier files):
#   ca.pem, ca.key          a throw-away test CA
#   server.pem, server.key  a server certificate signed by it for 127.0.0.1, ::1 and localhost
#   server.pin              the server key's pin in curl's CURLOPT_PINNEDPUBLICKEY form (sha256//BASE64)
# Everything is valid for 2 days.  Prints nothing on success.
#
# Usage: scripts/make-test-certs.sh DIR
set -eu

if [ "$#" -ne 1 ]; then
    echo "usage: $0 DIR" >&2
    exit 2
fi
dir=$1
mkdir -p "$dir"

# Build everything in a private work directory and move it into place at the end, so
# DIR never holds a half-written set.
work=$(mktemp -d "$dir/.make-test-certs.XXXXXX")
trap 'rm -rf "$work"' EXIT HUP INT TERM
umask 077

# Runs openssl quietly; on failure shows what it said and stops.
quiet() {
    if ! openssl "$@" >"$work/openssl.log" 2>&1; then
        cat "$work/openssl.log" >&2
        exit 1
    fi
}

# Explicit extensions (subject and authority key identifiers included) so that strict
# verifiers, such as Python 3.13's default X509 strict mode, accept the chain.
cat >"$work/ca.cnf" <<'EOF'
[req]
distinguished_name = dn
prompt = no
x509_extensions = ca_ext
[dn]
CN = Dreams for Littles Test CA
[ca_ext]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
EOF

cat >"$work/server.cnf" <<'EOF'
[req]
distinguished_name = dn
prompt = no
[dn]
CN = localhost
[server_ext]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1, IP:::1, DNS:localhost
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid, issuer
EOF

quiet req -x509 -config "$work/ca.cnf" -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout "$work/ca.key" -out "$work/ca.pem" -days 2
quiet req -new -config "$work/server.cnf" -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout "$work/server.key" -out "$work/server.csr"
serial=$(openssl rand -hex 16)
quiet x509 -req -in "$work/server.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -set_serial "0x$serial" \
    -days 2 -extfile "$work/server.cnf" -extensions server_ext -out "$work/server.pem"
quiet verify -CAfile "$work/ca.pem" "$work/server.pem"

# The pin is the SHA-256 of the certificate's DER-encoded SubjectPublicKeyInfo.
quiet x509 -in "$work/server.pem" -noout -pubkey -out "$work/server.pub"
quiet pkey -pubin -in "$work/server.pub" -outform DER -out "$work/server.pub.der"
quiet dgst -sha256 -binary -out "$work/server.pub.sha256" "$work/server.pub.der"
quiet base64 -A -in "$work/server.pub.sha256" -out "$work/server.pin.b64"
printf 'sha256//%s' "$(cat "$work/server.pin.b64")" >"$work/server.pin"

chmod 600 "$work/ca.key" "$work/server.key"
chmod 644 "$work/ca.pem" "$work/server.pem" "$work/server.pin"
for name in ca.key ca.pem server.key server.pem server.pin; do
    mv -f "$work/$name" "$dir/$name"
done
