#!/usr/bin/env bash
# Renders an `export --to hf` dataset card (README.md) as the Hub shows one,
# in headless Chromium (Debian's `chromium`), and saves a screenshot: the
# YAML front matter in a box (the Hub turns it into the sidebar and the
# viewer's configs), then the body as Markdown (tables, code), so a person
# can look at what a researcher finding the dataset sees. Python-Markdown
# comes from a scratch venv under the user cache.
#
#   scripts/screenshot-card.sh HF_EXPORT_DIR [OUT.png]
set -euo pipefail
dir="${1:?usage: scripts/screenshot-card.sh HF_EXPORT_DIR [OUT.png]}"
out="${2:-card-screenshot.png}"
card="$dir/README.md"
[[ -f "$card" ]] || { echo "screenshot-card: no $card (run flowbench export DIST --to hf -o $dir)" >&2; exit 2; }
command -v chromium >/dev/null || { echo "screenshot-card: chromium not found (apt-get install chromium)" >&2; exit 2; }
venv="${XDG_CACHE_HOME:-$HOME/.cache}/flowbench/card-venv"
if [[ ! -f "$venv/.ready-1" ]]; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet "markdown>=3.5" >&2
  touch "$venv/.ready-1"
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$venv/bin/python" - "$card" "$tmp/card.html" <<'PY'
import html, sys
import markdown

text = open(sys.argv[1], encoding="utf-8").read()
front, body = "", text
if text.startswith("---\n"):
    front, _, body = text[4:].partition("\n---\n")
page = f"""<!doctype html><meta charset="utf-8"><title>dataset card</title>
<style>
body {{ font: 15px/1.55 system-ui, sans-serif; max-width: 1100px; margin: 24px auto; color: #1f2328; }}
table {{ border-collapse: collapse; margin: 12px 0; }}
th, td {{ border: 1px solid #d0d7de; padding: 4px 10px; }}
th {{ background: #f6f8fa; }}
code, pre {{ font: 13px ui-monospace, monospace; background: #f6f8fa; }}
pre {{ padding: 10px; overflow: hidden; }}
details.front {{ border: 1px solid #d0d7de; border-radius: 6px; padding: 8px 12px; margin-bottom: 20px; }}
details.front pre {{ max-height: 260px; }}
</style>
<details class="front" open><summary>YAML metadata (configs, features, licence)</summary>
<pre>{html.escape(front)}</pre></details>
{markdown.markdown(body, extensions=["tables", "fenced_code"])}
"""
open(sys.argv[2], "w", encoding="utf-8").write(page)
PY
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --user-data-dir="$tmp/profile" --hide-scrollbars \
  --window-size=1200,2400 --screenshot="$(realpath -m "$out")" "file://$tmp/card.html" 2>/dev/null
echo "screenshot: $out (card: $card)"
