"""The integration tests' machinery, by concern, under the one name the
test files import from (`from harness import ...`):

- patience.py: PATIENCE, eventually, read_until, the wall clock in ms;
- proc_accounting.py: what /proc says about processes (children, wake-ups,
  CPU time, memory, descriptors);
- session.py: a private home, XDG directories and session bus (Session),
  a stand-in system bus (SystemBus);
- processes.py: the binaries under test, the agent as a process
  (AgentProcess), gdbus and dfl-sleepctl as clients, stop();
- reference_platform.py: the reference platform over TLS (Platform);
- base_cases.py: the base classes AgentTestCase and PlatformTestCase
  (app_harness.AppTestCase for the desktop app).

A new helper goes into the module of its concern; this one only names
them again."""

from base_cases import AgentTestCase, PlatformTestCase  # noqa: F401
from patience import PATIENCE, eventually, iso_ms, next_minute_ms, now_ms, read_until, sleep_until_ms  # noqa: F401
from proc_accounting import cpu_seconds, switches_by_thread, voluntary_switches, wait_until_settled  # noqa: F401
from processes import (AGENT, ARTIFACTS, BABY_ID, BUILD, BUS_NAME, ERROR, FAMILY_ID, INTERFACE, OBJECT_PATH,  # noqa: F401
                       ORIGIN, REPO, SLEEPCTL, USER_ID, AgentProcess, FileDescriptor, NotifySocket, canary_token,
                       gdbus_call, sleepctl, stop, timer_dict)
from reference_platform import DEMO_FAMILY, LEO, MAYA, Platform  # noqa: F401
from session import BUS_CONFIG, Session, SystemBus, session_environment, with_bus_limits  # noqa: F401
