"""The parallel runner's own choices, without running a test through it:
the order the classes start in, the lane each runs in, the records it keeps between runs, and
the slowest tests it names at the end of a stage and of make check."""

import contextlib
import io
import os
import shutil
import tempfile
import unittest

import parallel


class OrderTests(unittest.TestCase):
    def test_the_longest_last_time_starts_first_and_a_new_class_by_its_estimate(self):
        counts = {"a.Short": 2, "b.Long": 1, "c.New": 3}
        durations = {"a.Short": 5.0, "b.Long": 100.0}
        # c.New is not timed yet: 3 tests at the estimate each.
        self.assertEqual(parallel.longest_first(counts, durations), ["b.Long", "c.New", "a.Short"])

    def test_ties_go_by_name_so_every_run_starts_in_the_same_order(self):
        counts = {"b.Two": 1, "a.One": 1}
        self.assertEqual(parallel.longest_first(counts, {}), ["a.One", "b.Two"])


class LaneTests(unittest.TestCase):
    """Which unit starts next beside the ones running: two workers, a lane
    for the units that mostly sleep, the units that run alone last."""

    solo = {"m.Clock"}
    sleepers = {"m.Outage", "m.Suspend"}

    def next(self, waiting, running):
        return parallel.next_unit(waiting, running, 2, self.solo, self.sleepers)

    def test_a_sleeper_starts_beside_two_busy_workers(self):
        self.assertEqual(self.next(["m.Outage", "m.C"], ["m.A", "m.B"]), "m.Outage")

    def test_a_sleeper_does_not_hold_a_worker(self):
        self.assertEqual(self.next(["m.C"], ["m.A", "m.Outage"]), "m.C")

    def test_one_sleeper_at_a_time_and_the_workers_take_the_next_busy_unit(self):
        self.assertEqual(self.next(["m.Suspend", "m.C"], ["m.Outage", "m.A"]), "m.C")
        self.assertIsNone(self.next(["m.Suspend", "m.C"], ["m.Outage", "m.A", "m.B"]))

    def test_with_nothing_else_left_a_free_worker_takes_the_next_sleeper(self):
        self.assertEqual(self.next(["m.Suspend"], ["m.Outage", "m.A"]), "m.Suspend")
        self.assertEqual(self.next(["m.Suspend"], ["m.Outage"]), "m.Suspend")
        self.assertIsNone(self.next(["m.Suspend"], ["m.Outage", "m.A", "m.B"]))

    def test_a_sleeper_in_a_workers_place_counts_as_a_worker(self):
        self.assertIsNone(self.next(["m.Late", "m.C"], ["m.Outage", "m.Suspend", "m.A"]))
        self.assertEqual(self.next(["m.C"], ["m.Outage", "m.Suspend"]), "m.C")

    def test_two_busy_workers_and_no_sleeper_waiting_start_nothing(self):
        self.assertIsNone(self.next(["m.C", "m.D"], ["m.A", "m.B"]))

    def test_a_unit_that_runs_alone_waits_for_every_other_and_then_has_the_machine(self):
        self.assertIsNone(self.next(["m.Clock"], ["m.Outage"]))
        self.assertEqual(self.next(["m.Clock"], []), "m.Clock")
        self.assertIsNone(self.next(["m.Outage", "m.C"], ["m.Clock"]))

    def test_the_classes_say_which_lane_they_run_in(self):
        counts, solo, sleepers = parallel.units(["test_completion.OfflineTests", "test_clock"])
        self.assertIn("test_completion.OfflineTests", sleepers)
        self.assertTrue(solo)
        self.assertFalse(solo & sleepers)


class RecordTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="dfl-runner-")
        self.addCleanup(shutil.rmtree, self.folder, True)

    def test_a_record_read_back_is_the_record_written(self):
        path = os.path.join(self.folder, "runs", "times.json")
        parallel.write_seconds(path, {"m.C.test_a": 1.5, "m.C.test_b": 20.0})
        self.assertEqual(parallel.read_seconds(path), {"m.C.test_a": 1.5, "m.C.test_b": 20.0})

    def test_no_record_or_a_broken_one_reads_as_none(self):
        self.assertEqual(parallel.read_seconds(os.path.join(self.folder, "missing.json")), {})
        broken = os.path.join(self.folder, "broken.json")
        with open(broken, "w") as handle:
            handle.write("[1, 2")
        self.assertEqual(parallel.read_seconds(broken), {})

    def test_the_slowest_ten_of_several_runs_are_named_with_their_run(self):
        plain, asan = os.path.join(self.folder, "integration-tests"), os.path.join(self.folder, "integration-tests-asan")
        parallel.write_seconds(os.path.join(plain, "times.json"),
                               {"m.C.test_%02d" % n: float(n) for n in range(12)})
        parallel.write_seconds(os.path.join(asan, "times.json"), {"m.C.test_05": 99.0})
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            parallel.print_slowest([plain, asan])
        lines = [line.split() for line in printed.getvalue().splitlines()[1:]]
        self.assertEqual([(seconds, run, test) for seconds, _, run, test in lines][:3],
                         [("99.0", "integration-tests-asan", "m.C.test_05"),
                          ("11.0", "integration-tests", "m.C.test_11"),
                          ("10.0", "integration-tests", "m.C.test_10")])
        self.assertEqual(len(lines), 10)


class KnownDurationsTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="dfl-runner-")
        self.addCleanup(shutil.rmtree, self.folder, True)

    def test_a_fresh_clone_takes_the_kept_times_and_this_machines_record_wins(self):
        seed = os.path.join(self.folder, "seed.json")
        records = os.path.join(self.folder, "records")
        parallel.write_seconds(seed, {"m.Long": 200.0, "m.Short": 3.0})
        self.assertEqual(parallel.known_durations(records, seed), {"m.Long": 200.0, "m.Short": 3.0})
        parallel.write_seconds(os.path.join(records, "durations.json"), {"m.Short": 300.0})
        self.assertEqual(parallel.known_durations(records, seed), {"m.Long": 200.0, "m.Short": 300.0})


class SlowestTests(unittest.TestCase):
    def test_the_slowest_come_first_and_only_as_many_as_asked(self):
        times = {"a": 1.0, "b": 7.0, "c": 3.0, "d": 7.0}
        self.assertEqual(parallel.slowest(times, 3), [("b", 7.0), ("d", 7.0), ("c", 3.0)])


if __name__ == "__main__":
    unittest.main()
