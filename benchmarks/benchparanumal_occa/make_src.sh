#!/bin/bash
# The sources build.sh takes, as one tarball: benchParanumal at its newest stored commit with
# OCCA, at the commit benchParanumal pins (its occa submodule), unpacked into benchparanumal/occa.
# Needs the mirrors that okl's `fetch` tool makes (or any clones): BP_GIT and OCCA_GIT are their
# git directories.  Usage: make_src.sh OUT.tar.gz
set -euo pipefail
out=$(realpath -m "$1")
BP_GIT=${BP_GIT:-/work/.mirror/paranumal+benchparanumal/repo}
OCCA_GIT=${OCCA_GIT:-/work/.mirror/libocca+occa/repo}
tmp=$(mktemp -d)
git --git-dir="$BP_GIT" archive --prefix=benchparanumal/ HEAD | tar -x -C "$tmp"
pin=$(git --git-dir="$BP_GIT" ls-tree HEAD occa | awk '{print $3}')
echo "benchParanumal $(git --git-dir="$BP_GIT" rev-parse --short HEAD), OCCA ${pin:0:8}"
rm -rf "$tmp/benchparanumal/occa"
git --git-dir="$OCCA_GIT" archive --prefix=benchparanumal/occa/ "$pin" | tar -x -C "$tmp"
tar -czf "$out" -C "$tmp" benchparanumal
rm -rf "$tmp"
