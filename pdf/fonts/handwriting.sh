#!/usr/bin/env bash
# The handwriting faces of typed signatures, from Google Fonts as published on npm by
# @expo-google-fonts (OFL 1.1): Caveat (Latin, Latin Extended, Cyrillic) and Aref Ruqaa
# (Arabic). npm pack (pinned versions and tarball SHA-256) -> pyftsubset -> verify.
# Chinese, Japanese and Korean typed signatures fall back to Noto Sans CJK (a CJK
# handwriting face would add 3 to 8 MB per language; see README.md).
#
# Needs: npm, python3 with fonttools 4.68.0 (installed if missing), sha256sum.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="${FONT_WORK_DIR:-/tmp/pdf-fonts-build}/hand"
mkdir -p "$work"
if ! command -v pyftsubset >/dev/null 2>&1; then
  pip install fonttools==4.68.0 brotli || pip install --break-system-packages fonttools==4.68.0 brotli
fi

fetch() { # package version sha256 -> prints the unpacked folder
  local pkg="$1" ver="$2" sha="$3" tgz dir
  tgz="$work/$(echo "$pkg" | tr -d '@' | tr '/' '-')-$ver.tgz"
  if [ ! -f "$tgz" ] || ! echo "$sha  $tgz" | sha256sum -c --status; then
    (cd "$work" && npm pack "$pkg@$ver" >/dev/null 2>&1)
  fi
  echo "$sha  $tgz" | sha256sum -c --status || { echo "checksum mismatch: $tgz" >&2; exit 1; }
  dir="$work/$(basename "$tgz" .tgz)"
  rm -rf "$dir" && mkdir -p "$dir" && tar xzf "$tgz" -C "$dir"
  echo "$dir/package"
}

caveat="$(fetch @expo-google-fonts/caveat 0.4.2 83d530c10d893c03c5d2e2c1a7c52532ffb4de7eb8d8cfcf81bad0dfedfc959f)"
aref="$(fetch @expo-google-fonts/aref-ruqaa 0.4.1 bf29584329613cb355d91cb2ca75e3150a91464424292e43e953b6923125d5bf)"

common=(--layout-features='*' --notdef-outline --name-IDs='*' --name-languages='*' --no-hinting)
latin='U+0020-007E,U+00A0-00FF,U+0100-017F,U+0180-024F,U+0300-036F,U+0400-04FF,U+0500-052F,U+1E00-1EFF,U+2000-206F,U+20A0-20CF,U+FFFD'
pyftsubset "$caveat/400Regular/Caveat_400Regular.ttf" "${common[@]}" --unicodes="$latin" --output-file="$here/.Caveat-Regular.ttf.tmp"
mv "$here/.Caveat-Regular.ttf.tmp" "$here/Caveat-Regular.ttf"
pyftsubset "$aref/400Regular/ArefRuqaa_400Regular.ttf" "${common[@]}" --unicodes='*' --glyphs='*' --output-file="$here/.ArefRuqaa-Regular.ttf.tmp"
mv "$here/.ArefRuqaa-Regular.ttf.tmp" "$here/ArefRuqaa-Regular.ttf"

python3 - "$here" <<'PY'
import sys
from fontTools.ttLib import TTFont
here = sys.argv[1]
for name, sample in [("Caveat-Regular.ttf", "Zażółć gęślą jaźń Türkçe ğış Привет Grüße ação"), ("ArefRuqaa-Regular.ttf", "مرحبا بالعالم")]:
    f = TTFont(f"{here}/{name}")
    cmap = f.getBestCmap()
    missing = [c for c in sample if c != " " and ord(c) not in cmap]
    print(name, f["name"].getDebugName(1), len(cmap), "code points", "missing:", missing)
    assert not missing, name
PY
sha256sum "$here/Caveat-Regular.ttf" "$here/ArefRuqaa-Regular.ttf"
