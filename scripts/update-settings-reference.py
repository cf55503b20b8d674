#!/usr/bin/env python3
"""Puts `aasa-server serve --settings-reference` (the settings of SettingGroup's rows as
Markdown tables) between the settings reference markers of docs/settings.md.
ServeSettingsTests fails while the docs differ from the rows; `make settings-reference` runs this."""
import pathlib
import subprocess
import sys

BEGIN = "<!-- settings reference: made by make settings-reference from SettingGroup's rows -->"
END = "<!-- end of settings reference -->"

binary = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/aasa-server"
table = subprocess.run([binary, "serve", "--settings-reference"], check=True, capture_output=True, text=True).stdout
target = pathlib.Path("docs/settings.md")
others = [path for path in sorted(pathlib.Path("docs").glob("*.md")) if path != target and BEGIN in path.read_text()]
if others:
    sys.exit(f"{others[0]}: the settings reference lives in {target} alone")
text = target.read_text()
if BEGIN not in text:
    sys.exit(f"{target}: the marker {BEGIN!r} is missing")
head, rest = text.split(BEGIN, 1)
if END not in rest:
    sys.exit(f"{target}: the marker {END!r} is missing")
tail = rest.split(END, 1)[1]
target.write_text(head + BEGIN + "\n" + table.rstrip("\n") + "\n" + END + tail)
print(f"{target}: settings reference updated")
