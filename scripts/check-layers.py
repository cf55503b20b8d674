#!/usr/bin/env python3
"""The layering of docs/ARCHITECTURE.md as checks on the package graph and the sources.

    python3 scripts/check-layers.py [--self-test] [DESCRIBE.json]

Reads `swift package describe --type json` (or the file given) and fails, naming each broken
rule, when:
- a target depends, directly or through others, on a target its layer may not use (the
  portable commands on OpenSSL, zlib, epoll or the server; AASATransport and AASAACME on the
  sites; a library on the command line);
- a file of a portable target (AssociationKit, AASASystem, AASASites, AASAFileCommands)
  imports Glibc or Darwin, or names `Glibc.`, outside `#if canImport(...)`;
- a target that is not a test target reaches TestSupport (the tests' shared helpers).
With --self-test it first breaks the real graph on purpose (OpenSSL under the portable
commands, the sites under AASATransport, TestSupport under the probe) and fails unless each
is reported. Part of
`make lint`."""
import json, os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
C_MODULES = {"CSystemShims", "COpenSSL", "COpenSSLShims", "CZlib"}
PORTABLE = ["AssociationKit", "AASASystem", "AASASites", "AASAFileCommands"]
# target: what it may not reach, directly or not.
FORBIDDEN = {
    "AssociationKit": C_MODULES | {"AASASystem", "AASASites"},
    "AASASystem": C_MODULES | {"AASASites"},
    "AASASites": C_MODULES | {"AASASignedData", "AASATransport"},
    "AASAFileCommands": C_MODULES | {"AASASignedData", "AASATransport", "AASAACME", "AASALoop", "AASAServer",
                                     "AASAProbe", "AASACommands"},
    "AASATransport": {"AASASites", "AASAACME", "AASALoop", "AASAServer", "AASACommands", "AASAFileCommands"},
    "AASAACME": {"AASASites", "AASALoop", "AASAServer", "AASACommands", "AASAFileCommands"},
    "AASALoop": {"AASAServer", "AASAProbe", "AASACommands", "AASAFileCommands"},
    "AASAServer": {"AASAProbe", "AASACommands", "AASAFileCommands"},
}


def describe(arguments):
    if arguments:
        with open(arguments[0]) as data:
            return json.load(data)
    output = subprocess.run(["swift", "package", "describe", "--type", "json"], cwd=ROOT, check=True,
                            capture_output=True, text=True, timeout=300).stdout
    return json.loads(output[output.index("{"):])


def reachable(targets, name):
    seen, stack = set(), [name]
    while stack:
        for dependency in targets.get(stack.pop(), {}).get("target_dependencies", []):
            if dependency not in seen:
                seen.add(dependency)
                stack.append(dependency)
    return seen


def unguarded_imports(target):
    problems = []
    folder = os.path.join(ROOT, "Sources", target)
    for base, _, files in os.walk(folder):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(base, name)
            depth = 0
            with open(path, encoding="utf-8") as source:
                for number, line in enumerate(source, 1):
                    text = line.strip()
                    if text.startswith("#if canImport("):
                        depth += 1
                    elif text.startswith("#endif") and depth > 0:
                        depth -= 1
                    if re.match(r"(@preconcurrency\s+)?import\s+(Glibc|Darwin)\b", text) and depth == 0:
                        problems.append(f"{os.path.relpath(path, ROOT)}:{number}: imports the C library unguarded")
                    if re.search(r"\bGlibc\.", text) and not text.startswith("//") and depth == 0:
                        problems.append(f"{os.path.relpath(path, ROOT)}:{number}: names Glibc. in a portable target")
    return problems


def graph_problems(targets):
    problems = []
    for name, forbidden in FORBIDDEN.items():
        if name not in targets:
            problems.append(f"Package.swift: no target {name}")
            continue
        for reached in sorted(reachable(targets, name) & forbidden):
            problems.append(f"Package.swift: {name} reaches {reached} (docs/ARCHITECTURE.md, \"Layers\")")
    return problems


def test_support_problems(targets):
    return [f"Package.swift: {name} reaches TestSupport, which only test targets may use"
            for name, target in sorted(targets.items())
            if target.get("type") != "test" and "TestSupport" in reachable(targets, name)]


def main():
    arguments = [argument for argument in sys.argv[1:] if argument != "--self-test"]
    targets = {target["name"]: target for target in describe(arguments)["targets"]}
    if "--self-test" in sys.argv:
        broken = json.loads(json.dumps(targets))
        broken["AASAFileCommands"]["target_dependencies"].append("COpenSSL")
        broken["AASATransport"]["target_dependencies"].append("AASASites")
        broken["AASAProbe"]["target_dependencies"].append("TestSupport")
        found = graph_problems(broken) + test_support_problems(broken)
        for expected in ["AASAFileCommands reaches COpenSSL", "AASATransport reaches AASASites",
                         "AASAProbe reaches TestSupport"]:
            if not any(expected in problem for problem in found):
                sys.exit(f"check-layers.py --self-test: a broken graph was not reported ({expected})")
    problems = graph_problems(targets) + test_support_problems(targets)
    for name in PORTABLE:
        problems += unguarded_imports(name)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} layering problem(s)")
        sys.exit(1)


main()
