"""What /proc says about processes, read in one place: a process's parent,
state and children, the processes descended from it, its wake-ups (the
voluntary context switches of its threads), its CPU time, its resident
memory and its open descriptors.

Every scan of /proc here tolerates a process that ends while it is read."""

import os
import time

from patience import PATIENCE


def stat_fields(pid):
    """The fields of /proc/PID/stat after the command's name (which may hold
    spaces and parentheses): [0] the state, [1] the parent's pid, [11] and
    [12] the user and system CPU ticks. OSError when the process is gone."""
    with open("/proc/%s/stat" % pid) as handle:
        return handle.read().rsplit(")", 1)[1].split()


def parent_of(pid):
    """The parent's pid of a process; None when it is gone."""
    try:
        return int(stat_fields(pid)[1])
    except (OSError, ValueError, IndexError):
        return None


def alive(pid):
    """The process exists and is not a zombie."""
    try:
        return stat_fields(pid)[0] != "Z"
    except (OSError, IndexError):
        return False


def pids():
    """Every process's pid, as /proc lists it now."""
    return [int(entry) for entry in os.listdir("/proc") if entry.isdigit()]


def children_by_parent():
    """Every process's children, by the parent's pid."""
    children = {}
    for pid in pids():
        parent = parent_of(pid)
        if parent is not None:
            children.setdefault(parent, []).append(pid)
    return children


def children_of(pid):
    """The direct children of a process."""
    return children_by_parent().get(pid, [])


def process_tree(root):
    """`root` and every process descended from it."""
    children = children_by_parent()
    found = [root]
    for pid in found:
        found.extend(children.get(pid, []))
    return found


def executable(pid):
    """The real path of a process's program; None when it is gone or hidden."""
    try:
        return os.readlink("/proc/%s/exe" % pid)
    except OSError:
        return None


def command_line(pid):
    """A process's argv as bytes, NUL-separated as /proc keeps it; None when gone."""
    try:
        with open("/proc/%s/cmdline" % pid, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def environment(pid):
    """A process's environment as a list of b"NAME=value"; None when gone or
    not readable."""
    try:
        with open("/proc/%s/environ" % pid, "rb") as handle:
            return handle.read().split(b"\0")
    except OSError:
        return None


def voluntary_switches(pid, main_thread_only=False):
    """How often all threads of a process (or its main thread, the one that
    runs the loop) went to sleep: a count of its wake-ups, which a busy loop
    would drive into the thousands."""
    tasks = [str(pid)] if main_thread_only else os.listdir("/proc/%d/task" % pid)
    return sum(_task_switches(pid, task) for task in tasks)


def _task_switches(pid, task):
    """The voluntary switches of one thread of a process."""
    with open("/proc/%d/task/%s/status" % (pid, task)) as handle:
        for line in handle:
            if line.startswith("voluntary_ctxt_switches"):
                return int(line.split()[1])
    return 0


def switches_by_thread(pid):
    """The voluntary switches of each thread of a process, by "tid name":
    which thread woke, when a count says one did."""
    found = {}
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/comm" % (pid, task)) as handle:
                name = handle.read().strip()
            found["%s %s" % (task, name)] = _task_switches(pid, task)
        except FileNotFoundError:
            continue  # the thread ended meanwhile
    return found


def wait_until_settled(pid, quiet_s=5):
    """Waits until no thread of the process has switched for `quiet_s`: the
    end of its start-up, whose last steps (a worker thread's first answer,
    say) may come after READY=1 on a loaded machine."""
    deadline = time.monotonic() + PATIENCE
    seen = switches_by_thread(pid)
    while time.monotonic() < deadline:
        time.sleep(quiet_s)
        now = switches_by_thread(pid)
        if now == seen:
            return
        seen = now
    raise AssertionError("the agent's threads kept switching for %d s after its start: %s" % (PATIENCE, seen))


def cpu_seconds(pid):
    """CPU time a process has used: what a busy loop burns while it waits."""
    fields = stat_fields(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid):
    """Resident memory of a process (VmRSS), in KiB."""
    with open("/proc/%d/status" % pid) as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS for process %d" % pid)


def descriptors(pid):
    """The open file descriptors of a process: {number: what it refers to}."""
    result = {}
    directory = "/proc/%d/fd" % pid
    for name in os.listdir(directory):
        try:
            result[int(name)] = os.readlink(os.path.join(directory, name))
        except FileNotFoundError:
            pass
    return result
