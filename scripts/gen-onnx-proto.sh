#!/usr/bin/env bash
# js/src/onnx/onnx_pb.ts, the ONNX schema's protobuf code for unpool/onnx,
# generated from js/src/onnx/proto/onnx.proto (Debian's python3-onnx 1.12
# copy of onnx/onnx.proto, IR version 8) by protoc (Debian's
# protobuf-compiler) and @bufbuild/protoc-gen-es (a devDependency). The
# output is committed, so building the package needs neither.
#   scripts/gen-onnx-proto.sh           regenerate
#   scripts/gen-onnx-proto.sh --check   fail when the committed file is stale
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh proto npm
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
protoc --plugin=protoc-gen-es=node_modules/.bin/protoc-gen-es \
  --proto_path=js/src/onnx/proto --es_out="$out" \
  --es_opt=target=ts,import_extension=js onnx.proto
if [ "${1:-}" = --check ]; then
  if ! cmp -s "$out/onnx_pb.ts" js/src/onnx/onnx_pb.ts; then
    echo "gen-onnx-proto: js/src/onnx/onnx_pb.ts is stale; run scripts/gen-onnx-proto.sh" >&2
    exit 1
  fi
  echo "gen-onnx-proto: js/src/onnx/onnx_pb.ts is up to date"
else
  cp "$out/onnx_pb.ts" js/src/onnx/onnx_pb.ts
  echo "gen-onnx-proto: wrote js/src/onnx/onnx_pb.ts"
fi
