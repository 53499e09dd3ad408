"""Runs the integration tests in parallel workers: each test class in a
process of its own, which starts its own bus, display, servers and ports as
every test does, so that classes run side by side. Most of the tests wait
on processes and buses rather than on the CPU, so a two-core machine runs
two at once in much less time than one after another (three were faster
still, but a start under that load sometimes took longer than a test's
patience: steady comes first). A class that spends its minutes asleep (an
outage, a suspend, an idle minute counted) says so with `mostly_waits`: it
runs in a lane of its own beside the workers, one such class at a time, so
that its sleep does not hold a worker while the CPU it would leave idle is
there for the others; once nothing else is left for the workers, a free
worker takes the next such class too.

    parallel.py [--workers N] [--records DIR] [NAME ...]
    parallel.py --slowest DIR [DIR ...]

NAME is a module (test_sleepctl), a class (test_sleepctl.SleepctlTests) or
a test, as unittest names them; none means every test_*.py here. The
number of workers is --workers, else DFL_TEST_WORKERS, else 2.

The longest classes start first, by the time each took last (kept in
DIR/durations.json, DIR being --records, build/integration-tests unless
told: the sanitizers' runs keep theirs apart; on a fresh clone, by the
times kept with the tests in durations.json here); a class not timed yet
counts a fixed estimate per test. Each class's output is kept in DIR/logs/
and printed when it fails; each test's time in the last run in
DIR/times.json; the slowest ten tests are printed at the end; the exit
status is non-zero when anything failed or errored. --slowest prints the
slowest ten tests of the last runs kept in the DIRs (make check does, at
its end) and runs nothing."""

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
RECORDS = os.path.join(REPO, "build", "integration-tests")
# Each class's time in one whole run, kept with the tests: the order of a
# run on a fresh clone, which has no record of its own yet (the longest
# tests have one test each, so an estimate per test would start them last).
SEED = os.path.join(HERE, "durations.json")

# What a class not timed yet is taken to need per test, for the order only:
# most tests start a bus, the agent and a server and take some seconds.
ESTIMATE_PER_TEST = 10.0


def test_ids(suite):
    for item in suite:
        if isinstance(item, unittest.TestSuite):
            yield from test_ids(item)
        else:
            yield item.id()


def load_failure(test_id):
    """unittest's stand-in for a module that did not import."""
    return test_id.startswith("unittest.loader._FailedTest.")


def tests_of(suite):
    for item in suite:
        if isinstance(item, unittest.TestSuite):
            yield from tests_of(item)
        else:
            yield item


def units(names):
    """The units to run, each with its test count: a class as
    "module.Class", or a test named alone as itself; a module that does not
    import is a unit of its own, so that it fails. And the units that must
    run with nothing beside them: a test class says so with `runs_alone`
    (it changes what the whole machine sees, as a set clock does). And the
    units that mostly sleep, which run in the lane beside the workers: a
    test class says so with `mostly_waits`."""
    loader = unittest.TestLoader()
    found, solo, sleepers = {}, set(), set()
    alone = [name for name in names if name.count(".") == 2]
    rest = [name for name in names if name not in alone]
    for name in alone:
        found[name] = 1
    suites = [loader.loadTestsFromName(name) for name in alone]
    if rest or not names:
        suite = unittest.TestSuite(loader.loadTestsFromName(name) for name in rest) if rest else \
            loader.discover(HERE, pattern="test_*.py", top_level_dir=HERE)
        # A class one test module imports from another is found in both,
        # under the one id of its own module: counted once.
        for test_id in set(test_ids(suite)):
            unit = test_id.rsplit(".", 1)[1] if load_failure(test_id) else test_id.rsplit(".", 1)[0]
            found[unit] = found.get(unit, 0) + 1
        suites.append(suite)
    for test in tests_of(unittest.TestSuite(suites)):
        test_id = test.id()
        unit = test_id if test_id in found else test_id.rsplit(".", 1)[0]
        if getattr(type(test), "runs_alone", False):
            solo.add(unit)
        elif getattr(type(test), "mostly_waits", False):
            sleepers.add(unit)
    return found, solo, sleepers


def next_unit(waiting, running, workers, solo, sleepers):
    """The next unit of `waiting` (in its order) that may start beside the
    units `running`, or None: a unit that runs alone starts when nothing
    runs and then nothing starts beside it; a unit that mostly waits starts
    when no other such unit runs, whatever the workers do, or in a free
    worker's place once no other unit is left for the workers (a run whose
    lane carries more than its workers, as the sanitizers' short runs do,
    does not end with the workers idle); any other unit when fewer than
    `workers` run, a sleeper in a worker's place counting as one."""
    if any(unit in solo for unit in running):
        return None
    sleeping = sum(1 for unit in running if unit in sleepers)
    busy = len(running) - sleeping + max(sleeping - 1, 0)
    for_the_workers = any(unit not in solo and unit not in sleepers for unit in waiting)
    for unit in waiting:
        if unit in solo:
            if not running:
                return unit
        elif unit in sleepers:
            if not sleeping or (not for_the_workers and busy < workers):
                return unit
        elif busy < workers:
            return unit
    return None


def read_seconds(path):
    """A record of times, {name: seconds}; empty when there is none yet."""
    try:
        with open(path) as handle:
            return {str(k): float(v) for k, v in json.load(handle).items()}
    except (OSError, ValueError, AttributeError):
        return {}


def write_seconds(path, seconds):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    temporary = path + ".new"
    with open(temporary, "w") as handle:
        json.dump(seconds, handle, indent=1, sort_keys=True)
    os.replace(temporary, path)


def known_durations(records, seed=SEED):
    """Each class's last time: this machine's record in `records`, else
    the one kept with the tests."""
    return {**read_seconds(seed), **read_seconds(os.path.join(records, "durations.json"))}


def longest_first(counts, durations):
    """The units in the order they start: the longest last time first, a new
    one by its estimate; ties by name, so the order is the same each run."""
    def expected(unit):
        return durations.get(unit, counts[unit] * ESTIMATE_PER_TEST)
    return sorted(counts, key=lambda unit: (-expected(unit), unit))


class TimedResult(unittest.TextTestResult):
    """unittest's text result, with each test's wall time and outcome kept
    for the parent."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.times = []
        self.started = 0.0

    def startTest(self, test):
        self.started = time.monotonic()
        super().startTest(test)

    def stopTest(self, test):
        self.times.append((test.id(), time.monotonic() - self.started))
        super().stopTest(test)


def run_one(name, report):
    """In the worker's process: runs `name` and writes its tests' times and
    the counts to `report` (JSON)."""
    sys.path.insert(0, HERE)
    suite = unittest.defaultTestLoader.loadTestsFromName(name)
    runner = unittest.TextTestRunner(stream=sys.stderr, verbosity=2, resultclass=TimedResult)
    result = runner.run(suite)
    with open(report, "w") as handle:
        json.dump({"times": result.times, "run": result.testsRun,
                   "failures": [t.id() for t, _ in result.failures + result.errors],
                   "unexpected": [t.id() for t in result.unexpectedSuccesses],
                   "skipped": [[t.id(), why] for t, why in result.skipped]}, handle)
    return 0 if result.wasSuccessful() else 1


class Job:
    """One unit running in a process of its own, its output in a log."""

    def __init__(self, unit, logs):
        self.unit = unit
        self.log_path = os.path.join(logs, unit + ".log")
        self.report_path = os.path.join(logs, unit + ".json")
        for path in (self.log_path, self.report_path):
            if os.path.exists(path):
                os.remove(path)
        self.log = open(self.log_path, "w")
        self.started = time.monotonic()
        # A session of its own, so that an interrupted run can end the
        # unit's whole process group and nothing of it outlives the runner.
        self.process = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--one", unit,
                                         "--report", self.report_path],
                                        cwd=HERE, stdout=self.log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        self.seconds = None
        self.report = None

    def finished(self):
        if self.process.poll() is None:
            return False
        self.seconds = time.monotonic() - self.started
        self.log.close()
        try:
            with open(self.report_path) as handle:
                self.report = json.load(handle)
        except (OSError, ValueError):
            self.report = None
        return True

    def passed(self):
        return self.process.returncode == 0 and self.report is not None

    def output(self):
        with open(self.log_path, errors="replace") as handle:
            return handle.read()

    def stop(self):
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass


def run_all(names, workers, records=RECORDS):
    logs = os.path.join(records, "logs")
    os.makedirs(logs, exist_ok=True)
    counts, solo, sleepers = units(names)
    durations = known_durations(records)
    # The units that run alone come last, one after another, once every
    # other unit has ended.
    waiting = [unit for unit in longest_first(counts, durations) if unit not in solo] + sorted(solo)
    total = len(waiting)
    print("integration tests: %d tests in %d classes, %d workers%s; logs in %s"
          % (sum(counts.values()), total, workers,
             " and a lane for the %d that mostly wait" % len(sleepers) if sleepers else "",
             os.path.relpath(logs, REPO)), flush=True)
    began = time.monotonic()
    running, done = [], []
    try:
        while waiting or running:
            while True:
                unit = next_unit(waiting, [job.unit for job in running], workers, solo, sleepers)
                if unit is None:
                    break
                waiting.remove(unit)
                running.append(Job(unit, logs))
            for job in [j for j in running if j.finished()]:
                running.remove(job)
                done.append(job)
                tests = job.report["run"] if job.report else "?"
                print("[%d/%d] %s %s: %s tests in %.0f s" % (len(done), total, "ok  " if job.passed() else "FAIL",
                                                            job.unit, tests, job.seconds), flush=True)
                if not job.passed():
                    print(job.output(), flush=True)
            time.sleep(0.2)
    except KeyboardInterrupt:
        for job in running:
            job.stop()
        raise
    # A whole run's times replace the record (a class gone is forgotten); a
    # run of a few names keeps the others' as they were. A test run alone
    # says nothing of its class's time.
    timed = {job.unit: round(job.seconds, 1) for job in done if job.unit.count(".") == 1}
    recorded = read_seconds(os.path.join(records, "durations.json"))
    write_seconds(os.path.join(records, "durations.json"), timed if not names else {**recorded, **timed})
    write_seconds(os.path.join(records, "times.json"),
                  {test_id: round(seconds, 1) for job in done if job.report for test_id, seconds in job.report["times"]})
    return summary(done, time.monotonic() - began)


def slowest(times, count=10):
    """The `count` slowest of {test: seconds}, slowest first."""
    return sorted(times.items(), key=lambda item: (-item[1], item[0]))[:count]


def print_slowest(directories):
    """The slowest ten tests of the last runs kept in `directories` (each
    run's times.json), each test named with its run's folder."""
    times = {}
    for directory in directories:
        for test_id, seconds in read_seconds(os.path.join(directory, "times.json")).items():
            times["%s %s" % (os.path.basename(os.path.normpath(directory)), test_id)] = seconds
    if not times:
        print("no test times kept in %s" % ", ".join(directories))
        return 0
    print("the slowest ten tests:")
    for name, seconds in slowest(times):
        print("  %7.1f s  %s" % (seconds, name))
    return 0


def summary(done, wall):
    failed = [job for job in done if not job.passed()]
    times = [(test_id, seconds) for job in done if job.report for test_id, seconds in job.report["times"]]
    skipped = [entry for job in done if job.report for entry in job.report["skipped"]]
    print("\nthe slowest ten tests:")
    for test_id, seconds in slowest(dict(times)):
        print("  %7.1f s  %s" % (seconds, test_id))
    for test_id, why in skipped:
        print("skipped: %s (%s)" % (test_id, why))
    print("\n%d tests in %d classes in %.0f s wall time (%.0f s of tests), %d skipped"
          % (len(times), len(done), wall, sum(job.seconds for job in done), len(skipped)))
    if failed:
        print("FAILED: %s" % ", ".join(
            ", ".join(job.report["failures"] + job.report["unexpected"]) if job.report and
            (job.report["failures"] or job.report["unexpected"]) else job.unit + " (no report: it crashed)"
            for job in failed))
        return 1
    print("OK")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="modules, classes or tests; none: every test_*.py")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--records", default=RECORDS,
                        help="where the durations, the times and the logs are kept (default: build/integration-tests)")
    parser.add_argument("--slowest", nargs="+", metavar="DIR",
                        help="print the slowest ten tests of the runs kept in DIR ... and run nothing")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--report", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.one:
        return run_one(arguments.one, arguments.report)
    if arguments.slowest:
        return print_slowest(arguments.slowest)
    workers = arguments.workers
    if workers is None:
        try:
            workers = int(os.environ.get("DFL_TEST_WORKERS") or 2)
        except ValueError:
            parser.error("DFL_TEST_WORKERS must be a number of workers, not %r" % os.environ["DFL_TEST_WORKERS"])
    if workers < 1:
        parser.error("the number of workers must be at least 1")
    records = os.path.abspath(arguments.records)
    sys.path.insert(0, HERE)
    os.chdir(HERE)
    return run_all(arguments.names, workers, records)


if __name__ == "__main__":
    sys.exit(main())
