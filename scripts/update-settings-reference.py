#!/usr/bin/env python3
"""Puts `aasa-server serve --settings-reference` (the settings of SettingGroup's rows as
Markdown tables) between the settings reference markers of the docs file that has them.
ServeSettingsTests fails while the docs differ from the rows; `make settings-reference` runs this."""
import pathlib
import subprocess
import sys

BEGIN = "<!-- settings reference: made by make settings-reference from SettingGroup's rows -->"
END = "<!-- end of settings reference -->"

binary = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/aasa-server"
table = subprocess.run([binary, "serve", "--settings-reference"], check=True, capture_output=True, text=True).stdout
files = [path for path in sorted(pathlib.Path("docs").glob("*.md")) if BEGIN in path.read_text()]
if len(files) != 1:
    sys.exit(f"expected one docs file with the marker {BEGIN!r}, found {len(files)}")
text = files[0].read_text()
head, rest = text.split(BEGIN, 1)
if END not in rest:
    sys.exit(f"{files[0]}: the marker {END!r} is missing")
tail = rest.split(END, 1)[1]
files[0].write_text(head + BEGIN + "\n" + table.rstrip("\n") + "\n" + END + tail)
print(f"{files[0]}: settings reference updated")
