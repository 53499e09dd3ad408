#!/usr/bin/python3
"""The package test's checks of the 64-bit time_t renames, with python3-apt.

    t64_depends.py alternatives RENAMES DEPENDS
        Every name of RENAMES (packaging/debian/t64-renames) is in DEPENDS,
        and each or-group that names it or NAMEt64 is exactly
        "NAMEt64 (op X) | NAME (op X)" (the same bound, the new name first),
        or starts so. Ubuntu 24.04's graphical installers refuse a bare
        "NAME (>= X)" that only NAMEt64's Provides satisfies; Debian 13's
        python3-apt accepts it, so the field itself is what is checked.

    t64_depends.py complete DEPENDS
        Against this machine's apt lists: each name of DEPENDS for which a
        package NAMEt64 exists that provides NAME must have its alternative.
        Exits 77 when no name has such a package (a release before the
        transition, where there is nothing to check).

    t64_depends.py installable PACKAGE.deb
        python3-apt's DebPackage(PACKAGE.deb).check(), what gdebi and the
        graphical installers call before they install: exits 1 with its
        error text if it refuses.

It runs under /usr/bin/python3, the interpreter python3-apt is built for.
"""

import sys

import apt_pkg


def parse(depends):
    """The or-groups of a Depends field as lists of (name, version, op)."""
    try:
        return apt_pkg.parse_depends(depends, False)
    except ValueError as error:
        sys.exit(f"t64_depends: not a Depends field ({error}): {depends}")


def spelled(alternative):
    name, version, op = alternative
    return f"{name} ({op} {version})" if op else name


def group_text(group):
    return " | ".join(spelled(alternative) for alternative in group)


def read_renames(path):
    names = []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            line = line.split("#", 1)[0].strip()
            if line:
                names.append(line)
    if not names:
        sys.exit(f"t64_depends: {path} names no library")
    return names


def pair_problem(group, name):
    """Why GROUP is not "NAMEt64 (op X) | NAME (op X) ...", or None."""
    new = name + "t64"
    if len(group) < 2 or group[0][0] != new or group[1][0] != name:
        return f"'{group_text(group)}' is not '{new} (…) | {name} (…)'"
    if group[0][1:] != group[1][1:]:
        return f"'{group_text(group)}' bounds {new} and {name} differently"
    return None


def alternatives(renames_path, depends):
    groups = parse(depends)
    problems = []
    for name in read_renames(renames_path):
        new = name + "t64"
        naming = [group for group in groups if any(alternative[0] in (name, new) for alternative in group)]
        if not naming:
            problems.append(f"{name} (from t64-renames) is not among the dependencies")
        for group in naming:
            problem = pair_problem(group, name)
            if problem:
                problems.append(problem)
            else:
                print(f"      {group_text(group)}")
    for problem in problems:
        print(f"      {problem}")
    return 1 if problems else 0


def complete(depends):
    import apt

    cache = apt.Cache()
    groups = parse(depends)
    renamed = set()
    for group in groups:
        for alternative in group:
            name = alternative[0]
            base = name[: -len("t64")] if name.endswith("t64") else name
            new = base + "t64"
            if new not in cache:
                continue
            package = cache[new]
            versions = [version for version in (package.candidate, package.installed) if version is not None]
            if any(base in version.provides for version in versions):
                renamed.add(base)
    if not renamed:
        print("      no name of Depends has a NAMEt64 package that provides NAME on this release")
        return 77
    problems = []
    for base in sorted(renamed):
        for group in groups:
            if any(alternative[0] in (base, base + "t64") for alternative in group):
                problem = pair_problem(group, base)
                if problem:
                    problems.append(problem)
    print(f"      renamed on this release: {', '.join(sorted(renamed))}")
    for problem in problems:
        print(f"      {problem}")
    return 1 if problems else 0


def installable(path):
    import apt
    import apt.debfile

    package = apt.debfile.DebPackage(path, apt.Cache())
    if package.check():
        print(f"      DebPackage.check() accepts it; it would also install: {', '.join(package.missing_deps) or 'nothing'}")
        return 0
    # _failure_string is where DebPackage keeps the reason; gdebi shows it.
    print(f"      DebPackage.check() refuses it: {package._failure_string.strip()}")
    return 1


def main(arguments):
    apt_pkg.init()
    match arguments:
        case ["alternatives", renames_path, depends]:
            return alternatives(renames_path, depends)
        case ["complete", depends]:
            return complete(depends)
        case ["installable", path]:
            return installable(path)
    print(__doc__, file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
