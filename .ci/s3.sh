#!/usr/bin/env bash
# Starts versitygw (an S3-compatible gateway, posix backend) on 127.0.0.1 for the object
# storage tests and prints a --blobs URL of a bucket in it:
#
#   export AWS_ACCESS_KEY_ID=llmfs AWS_SECRET_ACCESS_KEY=llmfs-test-secret
#   export LLMFS_TEST_S3="$(.ci/s3.sh)"
#
# Installs versitygw with go install if it is not on PATH or in $(go env GOPATH)/bin. The
# objects live in $LLMFS_S3DATA (default /tmp/llmfs-s3); the server listens on
# 127.0.0.1:$LLMFS_S3PORT (default 7070) and is reused when already running. Progress goes
# to stderr; only the URL goes to stdout.
#
# The server keeps connections alive (--keep-alive), as S3 itself does: versitygw closes each
# connection after one response by default, and every chunk a grep read then dialed a new
# one (824 connections for a grep of the Go tree; 23% of its CPU). A server already running
# without it is reused, with a warning.
set -eu

DATA=${LLMFS_S3DATA:-/tmp/llmfs-s3}
PORT=${LLMFS_S3PORT:-7070}
BUCKET=${LLMFS_S3BUCKET:-llmfs-test}
VERSION=${LLMFS_VERSITYGW:-v1.8.0}
ACCESS=${AWS_ACCESS_KEY_ID:-llmfs}
SECRET=${AWS_SECRET_ACCESS_KEY:-llmfs-test-secret}

bin=$(command -v versitygw || true)
if [ -z "$bin" ]; then
	bin="$(go env GOPATH)/bin/versitygw"
	if [ ! -x "$bin" ]; then
		echo "s3.sh: go install github.com/versity/versitygw/cmd/versitygw@$VERSION" >&2
		GOBIN="$(dirname "$bin")" go install "github.com/versity/versitygw/cmd/versitygw@$VERSION" >&2
	fi
fi

up() { (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; }

if ! up; then
	mkdir -p "$DATA"
	ROOT_ACCESS_KEY_ID="$ACCESS" ROOT_SECRET_ACCESS_KEY="$SECRET" \
		nohup "$bin" --access "$ACCESS" --secret "$SECRET" --port "127.0.0.1:$PORT" --keep-alive posix "$DATA" \
		>"$DATA.log" 2>&1 &
	i=0
	until up; do
		i=$((i + 1))
		if [ "$i" -gt 100 ]; then
			echo "s3.sh: versitygw did not start; its log:" >&2
			cat "$DATA.log" >&2
			exit 1
		fi
		sleep 0.1
	done
elif command -v curl >/dev/null && curl -s -o /dev/null -D - "http://127.0.0.1:$PORT/" | grep -qi '^connection: close'; then
	echo "s3.sh: the server on :$PORT closes every connection (started without --keep-alive): figures taken over it overstate a client's CPU; restart it to get keep-alive" >&2
fi
# The posix backend's buckets are the directories under its root.
mkdir -p "$DATA/$BUCKET"
echo "s3://$BUCKET?endpoint=http://127.0.0.1:$PORT&region=us-east-1"
