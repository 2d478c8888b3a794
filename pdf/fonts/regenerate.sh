#!/usr/bin/env bash
# Regenerates every font file in this folder (plus OFL.txt) from Debian's
# Noto font packages: apt-get download -> dpkg-deb -x -> pyftsubset -> verify.
#
# Idempotent: the .deb files are cached in $FONT_WORK_DIR (default
# /tmp/pdf-fonts-build) and checked against pinned SHA-256 sums; each output
# file is written to a temporary name and moved into place only once it has
# been built. Running it twice gives the same files (for the same fonttools
# version). Files in this folder that are not listed below are left alone.
#
# Needs: apt-get (with package lists: run `apt-get update` once), dpkg-deb,
# python3 + pip. Takes about 2-3 minutes (the two CJK subsets take ~1 min each).
#
# Environment knobs:
#   FONT_WORK_DIR=/some/dir   where .debs are downloaded and unpacked
#   CJK_BOLD=0                build only NotoSansCJK-Regular.otf (default 1)
set -euo pipefail

OUT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK="${FONT_WORK_DIR:-/tmp/pdf-fonts-build}"
CJK_BOLD="${CJK_BOLD:-1}"

# Pinned sources (Debian bookworm).
CORE_PKG=fonts-noto-core
CORE_VER=20201225-1
CORE_SHA256=58f4f0bb6720f919f92096b3508e1412a0f1544424ade6c5b5bf1eb694dd64ba
CJK_PKG=fonts-noto-cjk
CJK_VER=1:20220127+repack1-1
CJK_SHA256=4a2515eb6db3978b897fef9709ed0d2b1f4c6c4df4d83d6c4ef65f71f1b1f502
FONTTOOLS_VER=4.68.0   # version the committed files were made with

# Unicode ranges -------------------------------------------------------------
# Latin/Greek/Cyrillic faces (Noto Sans, Noto Serif):
#   Basic Latin, Latin-1, Latin Ext-A/B, IPA Ext, Spacing Modifiers,
#   Combining Diacritics, Greek and Coptic, Cyrillic, Cyrillic Supplement,
#   Latin Ext Additional, General Punctuation, Super/Subscripts, Currency,
#   Letterlike, Number Forms, Arrows, Mathematical Operators, dotted circle
#   (shaping fallback), Latin ligatures, ZWNBSP, replacement character.
LATIN_UNICODES='U+0020-007E,U+00A0-024F,U+0250-02AF,U+02B0-02FF,U+0300-036F,U+0370-03FF,U+0400-04FF,U+0500-052F,U+1E00-1EFF,U+2000-206F,U+2070-209F,U+20A0-20CF,U+2100-214F,U+2150-218F,U+2190-21FF,U+2200-22FF,U+25CC,U+FB00-FB06,U+FEFF,U+FFFD'
# CJK face (Noto Sans CJK SC, covers zh/ja/ko):
#   Basic Latin, Hangul Jamo, General Punctuation, CJK Symbols & Punctuation,
#   Hiragana, Katakana, Hangul Compatibility Jamo, Katakana Phonetic Ext,
#   Enclosed CJK Letters & Months, CJK Unified Ideographs, Hangul Syllables,
#   CJK Compatibility Ideographs, Vertical Forms, CJK Compatibility Forms,
#   Halfwidth & Fullwidth Forms.
CJK_UNICODES='U+0020-007E,U+1100-11FF,U+2000-206F,U+3000-303F,U+3040-309F,U+30A0-30FF,U+3130-318F,U+31F0-31FF,U+3200-32FF,U+4E00-9FFF,U+AC00-D7AF,U+F900-FAFF,U+FE10-FE1F,U+FE30-FE4F,U+FF00-FFEF'

COMMON_OPTS=(
  --layout-features='*'   # keep every OpenType feature (kern, liga, locl, vert, init/medi/fina, mark, ...)
  --notdef-outline
  --name-IDs='*'
  --name-languages='*'
  --no-hinting            # hinting is useless for PDF output
)

log() { printf '[regenerate-fonts] %s\n' "$*" >&2; }

# 1. Tools -------------------------------------------------------------------
if ! command -v pyftsubset >/dev/null 2>&1 || ! python3 -c 'import fontTools' >/dev/null 2>&1; then
  log "installing fonttools==$FONTTOOLS_VER"
  pip install "fonttools==$FONTTOOLS_VER" brotli \
    || pip install --break-system-packages "fonttools==$FONTTOOLS_VER" brotli
fi
have_ft="$(python3 -c 'import fontTools; print(fontTools.version)')"
if [ "$have_ft" != "$FONTTOOLS_VER" ]; then
  log "note: fonttools $have_ft (files were made with $FONTTOOLS_VER); output may differ byte-wise"
fi

# 2. Download the pinned .debs ----------------------------------------------
mkdir -p "$WORK"
fetch_deb() { # pkg version sha256 -> prints path of the .deb
  local pkg="$1" ver="$2" sha="$3" deb
  deb="$(ls "$WORK/${pkg}_"*.deb 2>/dev/null | head -n1 || true)"
  if [ -n "$deb" ] && ! echo "$sha  $deb" | sha256sum -c --status; then
    log "cached $deb has the wrong checksum, downloading again"
    rm -f "$deb"; deb=""
  fi
  if [ -z "$deb" ]; then
    log "apt-get download $pkg=$ver"
    (cd "$WORK" && apt-get download "$pkg=$ver" >&2) || {
      log "apt-get download failed (run 'apt-get update' first?)"; exit 1; }
    deb="$(ls "$WORK/${pkg}_"*.deb | head -n1)"
    echo "$sha  $deb" | sha256sum -c --status || {
      log "checksum mismatch for $deb"; exit 1; }
  fi
  echo "$deb"
}
CORE_DEB="$(fetch_deb "$CORE_PKG" "$CORE_VER" "$CORE_SHA256")"
CJK_DEB="$(fetch_deb "$CJK_PKG" "$CJK_VER" "$CJK_SHA256")"

# 3. Unpack ------------------------------------------------------------------
X="$WORK/x"
rm -rf "$X"; mkdir -p "$X"
dpkg-deb -x "$CORE_DEB" "$X"
dpkg-deb -x "$CJK_DEB" "$X"
TT="$X/usr/share/fonts/truetype/noto"
OT="$X/usr/share/fonts/opentype/noto"

# 4. Subset ------------------------------------------------------------------
subset() { # src dest [extra pyftsubset args...]
  local src="$1" dest="$2"; shift 2
  log "pyftsubset $(basename "$src") -> $dest"
  pyftsubset "$src" "${COMMON_OPTS[@]}" "$@" --output-file="$OUT/.$dest.tmp"
  mv -f "$OUT/.$dest.tmp" "$OUT/$dest"
}

# Latin / Greek / Cyrillic, sans and serif.
for fam in NotoSans NotoSerif; do
  for style in Regular Bold Italic BoldItalic; do
    subset "$TT/$fam-$style.ttf" "$fam-$style.ttf" --unicodes="$LATIN_UNICODES"
  done
done

# Arabic: whole font (every glyph and every code point), only hinting dropped.
for fam in NotoNaskhArabic NotoSansArabic; do
  for style in Regular Bold; do
    subset "$TT/$fam-$style.ttf" "$fam-$style.ttf" --unicodes='*' --glyphs='*'
  done
done

# CJK: one face of the .ttc. Pick the index whose family is "Noto Sans CJK SC".
cjk_index() {
  python3 - "$1" <<'PY'
import sys
from fontTools.ttLib import TTCollection
for i, f in enumerate(TTCollection(sys.argv[1], lazy=True)):
    if f["name"].getDebugName(1) == "Noto Sans CJK SC":
        print(i); break
else:
    sys.exit("no 'Noto Sans CJK SC' face in " + sys.argv[1])
PY
}
cjk_styles=(Regular)
[ "$CJK_BOLD" = "1" ] && cjk_styles+=(Bold)
for style in "${cjk_styles[@]}"; do
  ttc="$OT/NotoSansCJK-$style.ttc"
  idx="$(cjk_index "$ttc")"
  subset "$ttc" "NotoSansCJK-$style.otf" --font-number="$idx" --unicodes="$CJK_UNICODES"
done

# 5. Licence text --------------------------------------------------------------
python3 - "$X/usr/share/doc/fonts-noto-cjk/copyright" "$OUT/OFL.txt" <<'PY'
import sys
src, dest = sys.argv[1], sys.argv[2]
lines = open(src, encoding="utf-8").read().splitlines()
start = lines.index("License: SIL-1.1", lines.index("License: SIL-1.1") + 1)  # the stand-alone licence paragraph
body = []
for line in lines[start + 1:]:
    if not line.startswith(" "):
        break
    line = line[1:]
    body.append("" if line == "." else line)
header = """The font files in this folder are subsets of Google's Noto fonts, as shipped
by Debian (packages fonts-noto-core and fonts-noto-cjk).

Copyright notices (name ID 0 of the fonts):
  Noto Sans, Noto Serif:  Copyright 2015 Google LLC. All Rights Reserved.
  Noto Naskh Arabic:      Copyright 2019-2020 Google LLC. All Rights Reserved.
  Noto Sans Arabic:       Copyright 2015-2020 Google LLC. All Rights Reserved.
  Noto Sans CJK:          (c) 2014-2021 Adobe (http://www.adobe.com/).
Debian's copyright files state: Copyright 2010, 2012-2020 Google Inc.,
2015-2020 Google LLC (fonts-noto-core); 2010-2012 Google Corporation
(fonts-noto-cjk). No Reserved Font Name is declared for these fonts.

The exact copyright string of each font is kept in its name table (name ID 0).
These fonts are licensed under the SIL Open Font License, Version 1.1, whose
text follows. It is also available with a FAQ at: https://openfontlicense.org

"""
open(dest, "w", encoding="utf-8").write(header + "\n".join(body).rstrip() + "\n")
PY

# 6. Verify --------------------------------------------------------------------
python3 - "$OUT" <<'PY'
import os, sys
from fontTools.ttLib import TTFont
out = sys.argv[1]
latin = "Zażółć gęślą jaźń Türkçe ğış Привет мир Grüße ação € ñ ÇŞİ «»“”–—…"
checks = {"Noto": latin, "Arabic": "مرحبا بالعالم ٠١٢٣", "CJK": "日本語のテキスト 中文文本 한국어 텍스트 、。「」"}
bad = 0
for fn in sorted(os.listdir(out)):
    if not fn.endswith((".ttf", ".otf")):
        continue
    f = TTFont(os.path.join(out, fn))
    cmap = f.getBestCmap()
    kind = "CJK" if "CJK" in fn else "Arabic" if "Arabic" in fn else "Noto"
    missing = sorted({c for c in checks[kind] if not c.isspace() and ord(c) not in cmap})
    feats = sorted({fr.FeatureTag for fr in f["GSUB"].table.FeatureList.FeatureRecord}) if "GSUB" in f else []
    name = f["name"]
    print(f"{fn}: {os.path.getsize(os.path.join(out, fn))} bytes, {f['maxp'].numGlyphs} glyphs, "
          f"family(1)={name.getDebugName(1)!r} subfamily(2)={name.getDebugName(2)!r} "
          f"typo-family(16)={name.getDebugName(16)!r}, GSUB={','.join(feats)}"
          + (f" MISSING {''.join(missing)}" if missing else ""))
    bad += bool(missing)
sys.exit(1 if bad else 0)
PY
log "done: $(du -sh "$OUT" | cut -f1) in $OUT"
