#!/usr/bin/env python3
"""The layering of docs/ARCHITECTURE.md as checks on the package graph and the sources.

    python3 scripts/check-layers.py [--self-test] [DESCRIBE.json]

Reads `swift package describe --type json` (or the file given) and fails, naming each broken
rule, when:
- a target depends, directly or through others, on a target its layer may not use (the
  portable commands on OpenSSL, zlib, epoll or the server; AASATransport and AASAACME on the
  sites; the loop core, AASALoop, on any site type: AASASites, AASAACME, AASASiteServing; a
  library on the command line);
- a file of the loop core imports a module of sites or association files (CORE_IMPORTS: it
  reaches AssociationKit through AASATransport, and imports it only for the JSON writer of
  its access log);
- a file of a portable target (AssociationKit, AASASystem, AASASites, AASAFileCommands)
  imports Glibc or Darwin, or names `Glibc.`, outside `#if canImport(...)` or `#if os(Linux)`;
- a portable target reaches a C module otherwise than through AASASystem's Linux-only
  dependency on CSystemShims (declared with `.when(platforms: [.linux])` in Package.swift);
- a system call (SYSTEM_CALLS) is made outside AASASystem, the one target that makes them;
- code stands outside its room (ROOMS: the clock, workers' waits, ACME's cryptography, the
  address parser, libpq and the store's cipher each in one place), or a folder that was emptied by meaning comes back (LEFT_FOLDERS);
- a target that is not a test target reaches TestSupport (the tests' shared helpers).
With --self-test it first breaks the real graph on purpose (OpenSSL under the portable
commands, the sites under AASATransport, the sites' application under the loop core,
TestSupport under the probe) and fails unless each is reported. Part of
`make lint`."""
import json, os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
C_MODULES = {"CSystemShims", "COpenSSL", "COpenSSLShims", "CZlib", "CLibPQ"}
PORTABLE = ["AssociationKit", "AASASystem", "AASASites", "AASAFileCommands"]
# target: what it may not reach, directly or not.
FORBIDDEN = {
    "AssociationKit": C_MODULES | {"AASASystem", "AASASites"},
    "AASASystem": C_MODULES | {"AASASites"},
    "AASASites": C_MODULES | {"AASASignedData", "AASATransport"},
    "AASAFileCommands": C_MODULES | {"AASASignedData", "AASATransport", "AASAACME", "AASALoop", "AASASiteServing",
                                     "AASAServer", "AASAProbe", "AASACommands"},
    "AASATransport": {"AASASites", "AASAACME", "AASALoop", "AASASiteServing", "AASAServer", "AASACommands",
                      "AASAFileCommands"},
    # What replicas share: below ACME, above the system calls; no sockets, sites or HTTP.
    "AASAStore": {"AASASites", "AASASignedData", "AASATransport", "AASAACME", "AASALoop", "AASASiteServing",
                  "AASAServer", "AASAProbe", "AASACommands", "AASAFileCommands"},
    "AASAACME": {"AASASites", "AASALoop", "AASASiteServing", "AASAServer", "AASACommands", "AASAFileCommands"},
    # The generic loop core knows no site type (docs/ARCHITECTURE.md, "Layers").
    "AASALoop": {"AASASites", "AASAACME", "AASAStore", "AASASiteServing", "AASAServer", "AASAProbe", "AASACommands",
                 "AASAFileCommands"},
    "AASASiteServing": {"AASAServer", "AASAProbe", "AASACommands", "AASAFileCommands"},
    "AASAServer": {"AASAProbe", "AASACommands", "AASAFileCommands"},
}

# Modules the loop core's files may not import, and the one file that may import AssociationKit
# (the access log's JSON writer); AASATransport brings AssociationKit into the graph anyway.
CORE = "Sources/AASALoop/"
CORE_IMPORTS = {"AASASites": None, "AASAACME": None, "AASASiteServing": None, "AASASignedData": None,
                "AssociationKit": "Sources/AASALoop/Logging/AccessLog.swift"}


def core_import_problems(sources):
    problems = []
    for path, text in sorted(sources.items()):
        if not path.startswith(CORE):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            match = re.match(r"\s*(?:@\w+\s+)*import\s+(\w+)", line)
            if match and match.group(1) in CORE_IMPORTS and CORE_IMPORTS[match.group(1)] != path:
                problems.append(f"{path}:{number}: the loop core imports {match.group(1)} (docs/ARCHITECTURE.md, "
                                "\"Layers\")")
    return problems


# Linux-only edges of the graph: `swift package describe` lists a conditional dependency as any
# other, so Package.swift's declaration is checked instead (LINUX_ONLY_DECLARATION).
LINUX_ONLY_EDGES = {("AASASystem", "CSystemShims")}
LINUX_ONLY_DECLARATION = '.target(name: "CSystemShims", condition: .when(platforms: [.linux]))'

# What counts as a system call: the kernel's calls of section 2 of the manual and the C library's
# functions that make them for the caller (sleeping, the resolver, the user and group databases,
# sysconf's reading of the system, malloc_trim's giving memory back, CSystemShims' wrappers).
# Not counted, so not checked: pure functions of the C library (memcmp, strerror, inet_pton,
# gai_strerror, sigemptyset...), pthread_self and pthread_equal (no call into the kernel),
# getenv and unsetenv (the process's own memory), and OpenSSL, zlib and libpq, which make their
# own calls behind their C modules. Names that are also methods of ours (open, read, write,
# close, send, connect, bind, listen, accept, link, stat, shutdown) count when written as the C
# library's, `Glibc.NAME(` or `Darwin.NAME(`: unqualified they are our own.
SYSTEM_CALLS = [
    "accept4", "chdir", "chmod", "chown", "clock_gettime", "closedir", "dup", "dup2", "dup3", "epoll_create1",
    "epoll_ctl", "epoll_wait", "eventfd", "execve", "faccessat", "fchmod", "fchown", "fcntl", "fdatasync", "fdopendir",
    "flock", "fork", "fstat", "fstatat", "fsync", "ftruncate", "futimens", "getaddrinfo", "getegid", "geteuid",
    "getgid", "getgrgid", "getgroups", "getpeername", "getpid", "getppid", "getpwuid", "getrandom", "getrlimit",
    "getrusage", "getsockname", "getsockopt", "gettimeofday", "getuid", "inotify_add_watch", "inotify_init1",
    "inotify_rm_watch", "ioctl", "kill", "lseek", "lstat", "madvise", "malloc_trim", "mkdir", "mkdirat", "mmap",
    "munmap", "nanosleep", "openat", "opendir", "pipe", "pipe2", "poll", "ppoll", "prctl", "pread", "pthread_create",
    "pthread_join", "pthread_kill", "pthread_sigmask", "pwrite", "raise", "readdir", "readlink", "readlinkat",
    "realpath", "recv", "recvfrom", "recvmsg", "rename", "renameat", "renameat2", "rmdir", "sendmsg", "sendto",
    "setrlimit", "setsockopt", "sigaction", "signal", "sigprocmask", "sigwait", "socket", "symlink", "symlinkat",
    "sysconf", "umask", "unlink", "unlinkat", "usleep", "utimensat", "waitpid",
]
AMBIGUOUS_CALLS = ["open", "read", "write", "close", "send", "connect", "bind", "listen", "accept", "link", "stat",
                   "shutdown"]
SYSTEM_CALL = re.compile(
    r"(?:(?<![\w.])(?:Glibc\.|Darwin\.)?(?:" + "|".join(SYSTEM_CALLS) + r")\("
    + r"|(?<![\w.])CSystemShims_\w+\("
    + r"|(?:Glibc|Darwin)\.(?:" + "|".join(AMBIGUOUS_CALLS) + r")\()")
SYSTEM_ROOM = "Sources/AASASystem/"


def system_call_problems(sources):
    """A system call made outside AASASystem (not in a comment, not a declaration of our own)."""
    problems = []
    for path, text in sorted(sources.items()):
        if path.startswith(SYSTEM_ROOM):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            code = line.split("//", 1)[0]
            for match in SYSTEM_CALL.finditer(code):
                if re.search(r"\bfunc\s+$", code[:match.start()]):
                    continue  # a declaration of our own, `func poll(`
                call = match.group(0).rstrip("(")
                problems.append(f"{path}:{number}: {call}(...) is a system call: only AASASystem makes "
                                f"them (a wrapper in {SYSTEM_ROOM}, `Posix.*`; Linux-only ones in {SYSTEM_ROOM}Linux/)")
                break
    return problems


def linux_only_problems(package_text):
    """The edges taken as Linux-only must be declared so in Package.swift."""
    if LINUX_ONLY_DECLARATION not in package_text:
        return [f"Package.swift: AASASystem's dependency on CSystemShims must be Linux-only "
                f"({LINUX_ONLY_DECLARATION}), or the portable targets reach a C module"]
    return []


# A call that belongs to one room: (pattern, the folder that alone may make it, what the room is).
ROOMS = [
    (r"\bclock_gettime\(", "Sources/AASASystem/Time/", "the clock (MonotonicClock, HTTPDate)"),
    (r"\bNSCondition\b", "Sources/AASASystem/Threads/", "workers' waits (WorkerSignal)"),
    (r"\binet_pton\(", "Sources/AASATransport/System/IPAddress.swift", "the one parser of address text (IPAddress)"),
    (r"\b(?:EVP_Digest\w*|HMAC|X509_REQ_\w+|EVP_PKEY_keygen\w*|ECDSA_SIG_\w+)\(", "Sources/AASAACME/Crypto/",
     "ACME's cryptography"),
    (r"\bPQ[a-z]\w*\(", "Sources/AASAStore/Postgres/", "libpq (the store's PostgreSQL engine)"),
    (r"\bEVP_(?:Encrypt|Decrypt)\w*\(", "Sources/AASAStore/Postgres/StoreCipher.swift",
     "the store's cipher of private keys"),
]
# Folders whose code moved to the room of its meaning (docs/ARCHITECTURE.md, "Layers").
LEFT_FOLDERS = {
    "Sources/AASATransport/Crypto": "ACME's cryptography lives in Sources/AASAACME/Crypto",
    "Sources/AASATransport/Time": "the clock and HTTP dates live in Sources/AASASystem/Time",
    "Sources/AASATransport/Threads": "workers' waits live in Sources/AASASystem/Threads",
    "Sources/AASAServer/Operations": "the lifecycle lives in Sources/AASAServer/Lifecycle, admin HTTP in .../Admin",
}


def room_problems(sources):
    """`sources` maps a path relative to the root to its text."""
    problems = []
    for path, text in sorted(sources.items()):
        for pattern, room, meaning in ROOMS:
            if path.startswith(room):
                continue
            for number, line in enumerate(text.splitlines(), 1):
                if re.search(pattern, line) and not line.strip().startswith("//"):
                    problems.append(f"{path}:{number}: {meaning} belongs in {room}")
    return problems


def source_texts():
    texts = {}
    for base, _, files in os.walk(os.path.join(ROOT, "Sources")):
        for name in files:
            if name.endswith(".swift"):
                path = os.path.join(base, name)
                with open(path, encoding="utf-8") as source:
                    texts[os.path.relpath(path, ROOT)] = source.read()
    return texts


def folder_problems():
    # git keeps no empty folder, so only one with files in it counts.
    return [f"{folder}/: {why}" for folder, why in sorted(LEFT_FOLDERS.items())
            if any(files for _, _, files in os.walk(os.path.join(ROOT, folder)))]


def describe(arguments):
    if arguments:
        with open(arguments[0]) as data:
            return json.load(data)
    output = subprocess.run(["swift", "package", "describe", "--type", "json"], cwd=ROOT, check=True,
                            capture_output=True, text=True, timeout=300).stdout
    return json.loads(output[output.index("{"):])


def reachable(targets, name, skipped=frozenset()):
    seen, stack = set(), [name]
    while stack:
        current = stack.pop()
        for dependency in targets.get(current, {}).get("target_dependencies", []):
            if (current, dependency) in skipped:
                continue
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
                    if text.startswith("#if canImport(") or text.startswith("#if os(Linux)"):
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
        for reached in sorted(reachable(targets, name, LINUX_ONLY_EDGES) & forbidden):
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
        broken["AASALoop"]["target_dependencies"].append("AASASiteServing")
        found = graph_problems(broken) + test_support_problems(broken)
        for expected in ["AASAFileCommands reaches COpenSSL", "AASATransport reaches AASASites",
                         "AASAProbe reaches TestSupport", "AASALoop reaches AASASites"]:
            if not any(expected in problem for problem in found):
                sys.exit(f"check-layers.py --self-test: a broken graph was not reported ({expected})")
        calls = system_call_problems({"Sources/AASALoop/Trim.swift": "    malloc_trim(0)",
                                      "Sources/AASAStore/Pipe.swift": "if pipe(&ends) == 0 {",
                                      "Sources/AASAServer/Stop.swift": "_ = Glibc.close(fd)",
                                      "Sources/AASALoop/Own.swift": "close(connection); func send(_ fd: Int32) {}",
                                      "Sources/AASAACME/Wait.swift": "func wait() { usleep(1) }",
                                      "Sources/AASASystem/Posix.swift": "_ = fsync(fd)"})
        if len(calls) != 4:
            sys.exit(f"check-layers.py --self-test: system calls outside AASASystem were not reported as such ({calls})")
        misplaced = room_problems({"Sources/AASALoop/Clock.swift": "let now = clock_gettime(CLOCK_MONOTONIC, &time)",
                                   "Sources/AASATransport/Key.swift": "guard let context = EVP_PKEY_keygen_init(c)"})
        if len(misplaced) != 2:
            sys.exit(f"check-layers.py --self-test: code outside its room was not reported ({misplaced})")
        imported = core_import_problems({"Sources/AASALoop/Loop/Site.swift": "import AASASites\nimport AssociationKit",
                                         "Sources/AASALoop/Logging/AccessLog.swift": "import AssociationKit"})
        if len(imported) != 2:
            sys.exit(f"check-layers.py --self-test: a site module imported by the core was not reported ({imported})")
    sources = source_texts()
    problems = graph_problems(targets) + test_support_problems(targets) + room_problems(sources)
    problems += core_import_problems(sources)
    problems += folder_problems() + system_call_problems(sources)
    with open(os.path.join(ROOT, "Package.swift"), encoding="utf-8") as package:
        problems += linux_only_problems(package.read())
    for name in PORTABLE:
        problems += unguarded_imports(name)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} layering problem(s)")
        sys.exit(1)


main()
