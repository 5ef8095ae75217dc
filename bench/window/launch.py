#!/usr/bin/env python3
"""Launch to first frame and peak resident memory: Faro against the plain C GTK3 window, alternating, same display.

  launch.py ROUNDS CWINDOW TEMPLATE [--builder-timing LIB] [--c-curl CWINDOW_CURL URL] -- FARO_COMMAND...

Each round runs, in alternating order:
  c          the C window built in code (it quits after its first frame, which shows its 8 rows);
  c_builder  the same C window built from the GtkBuilder definition TEMPLATE (what parsing templates adds);
  faro       Faro with FARO_TIMINGS=1, timed to its `frame=first` line, then sent SIGTERM;
  faro_rows  the same, timed to its `frame=rows` line (the first frame that shows beacon rows).
  c_curl     with --c-curl: the C window built with libcurl (cwindow.c, -DCWINDOW_CURL), which after its first
             frame fetches the backend's catalog page URL before it quits: the like-for-like reference for the
             peak of faro_rows, whose catalog pull has libcurl and OpenSSL's start in it: the peak goal's
             reference (the first-frame goal's is the plain C window).
FARO_COMMAND is Faro as a user runs it: tray on, a backend, the 8 beacons of the C window's list. Wall time is
spawn to exit (for Faro: to its FARO_TIMINGS line) (time.perf_counter around posix_spawn and wait4); CPU time is the child's user + system time and
peak RSS its ru_maxrss, both from wait4. One unmeasured warm-up run of each comes first (disk cache, the
accessibility bus, the X server's cached visuals). Prints medians as key=value lines.

Faro's rows arrive with its list's first 1 Hz tick, so its first frame with rows comes about a second after
launch, most of it waiting: its wall time is reported, and its CPU time is compared with the C window's (the work
to put the 8 rows on screen). The first-frame goal compares the first frames; the memory goal compares the peak of
the run with rows, the list as full as the C window's.

With --builder-timing LIB (bench/window/builder_timing.c built as a shared library), ROUNDS more faro_rows runs
are made with LD_PRELOAD=LIB after the timed rounds: the median time Faro spends in GtkBuilder calls.
"""
import os
import signal
import statistics
import sys
import tempfile
import time


def run(argv, extra_env, marker=None):
    """Spawn to exit, or with `marker` (Faro's FARO_TIMINGS line) spawn to that line, after which it is
    sent SIGTERM: Faro only prints its timings and the benchmark ends it (bench/README.md)."""
    env = dict(os.environ, **extra_env)
    devnull = os.open(os.devnull, os.O_WRONLY)
    reader, writer = os.pipe() if marker else (None, devnull)
    t0 = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, env, file_actions=[(os.POSIX_SPAWN_DUP2, writer, 1)])
    signal.alarm(30)
    try:
        if marker:
            os.close(writer)
            seen = b""
            while marker.encode() + b"\n" not in seen:
                chunk = os.read(reader, 4096)
                if not chunk:
                    raise SystemExit(f"launch.py: {argv[0]} ended before printing {marker}")
                seen += chunk
            elapsed = (time.perf_counter() - t0) * 1000
            os.kill(pid, signal.SIGTERM)  # Faro quits cleanly on SIGTERM (builder_timing's report runs at exit)
            _, status, usage = os.wait4(pid, 0)
            os.close(reader)
        else:
            _, status, usage = os.wait4(pid, 0)
            elapsed = (time.perf_counter() - t0) * 1000
    except TimeoutError:
        os.kill(pid, 9)
        os.wait4(pid, 0)
        raise SystemExit(f"launch.py: {argv[0]} did not reach its first frame within 30 s")
    signal.alarm(0)
    os.close(devnull)
    if not marker and (not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0):
        raise SystemExit(f"launch.py: {' '.join(argv)} failed with status {status}")
    return elapsed, usage.ru_maxrss, (usage.ru_utime + usage.ru_stime) * 1000


def on_alarm(signum, frame):
    raise TimeoutError


def main():
    signal.signal(signal.SIGALRM, on_alarm)
    args = sys.argv[1:sys.argv.index("--")]
    faro = sys.argv[sys.argv.index("--") + 1:]
    rounds, cwindow, template = int(args[0]), args[1], args[2]
    timing_lib = args[args.index("--builder-timing") + 1] if "--builder-timing" in args else None
    c_curl = args[args.index("--c-curl") + 1:args.index("--c-curl") + 3] if "--c-curl" in args else None
    kinds = {
        "c": ([cwindow], {}, None),
        "c_builder": ([cwindow, "--builder", template], {}, None),
        "faro": (faro, {"FARO_TIMINGS": "1"}, "frame=first"),
        "faro_rows": (faro, {"FARO_TIMINGS": "1"}, "frame=rows"),
    }
    if c_curl:
        kinds["c_curl"] = ([c_curl[0], "--pull", c_curl[1]], {}, None)
    results = {k: ([], [], []) for k in kinds}
    for k in kinds:
        run(*kinds[k])
    for r in range(rounds):
        order = list(kinds) if r % 2 == 0 else list(reversed(kinds))
        for k in order:
            ms, kb, cpu = run(*kinds[k])
            for i, v in enumerate((ms, kb, cpu)):
                results[k][i].append(v)
            print(f"# round {r + 1} {k}: {ms:.1f} ms, {kb} kB, {cpu:.0f} ms CPU", file=sys.stderr)
    med = {k: tuple(statistics.median(v) for v in vs) for k, vs in results.items()}
    (f_ms, f_kb, f_cpu), (c_ms, c_kb, c_cpu) = med["faro"], med["c"]
    (r_ms, r_kb, r_cpu), (b_ms, b_kb, b_cpu) = med["faro_rows"], med["c_builder"]
    t_ratio, m_ratio, cpu_ratio = f_ms / c_ms, r_kb / c_kb, r_cpu / c_cpu
    print(f"window_first_frame_faro_ms={f_ms:.1f} window_first_frame_c_ms={c_ms:.1f} window_first_frame_ratio={t_ratio:.2f}"
          f" window_first_frame_goal_1_35x={'yes' if t_ratio <= 1.35 else 'no'} window_launch_rounds={rounds}")
    print(f"window_peak_rss_faro_kb={r_kb:.0f} window_peak_rss_c_kb={c_kb:.0f} window_rss_ratio={m_ratio:.2f}"
          f" window_peak_rss_faro_first_frame_kb={f_kb:.0f}")
    print(f"window_rows_frame_faro_ms={r_ms:.1f} window_rows_cpu_faro_ms={r_cpu:.0f} window_c_cpu_ms={c_cpu:.0f}"
          f" window_rows_cpu_ratio={cpu_ratio:.2f} window_first_frame_cpu_faro_ms={f_cpu:.0f}")
    print(f"window_first_frame_c_builder_ms={b_ms:.1f} window_c_builder_cost_ms={b_ms - c_ms:.1f}"
          f" window_c_builder_cpu_ms={b_cpu:.0f} window_peak_rss_c_builder_kb={b_kb:.0f}")
    if c_curl:
        cc_ms, cc_kb, cc_cpu = med["c_curl"]
        # The peak goal: against the C window that also pulls the catalog with libcurl (bench/README.md).
        print(f"window_peak_rss_c_curl_kb={cc_kb:.0f} window_rss_ratio_c_curl={r_kb / cc_kb:.2f}"
              f" window_rss_goal_1_4x={'yes' if r_kb / cc_kb <= 1.4 else 'no'}"
              f" window_c_curl_ms={cc_ms:.1f} window_c_curl_cpu_ms={cc_cpu:.0f}")
    if timing_lib:
        calls, spent = [], []
        with tempfile.TemporaryDirectory() as folder:
            for r in range(rounds):
                path = os.path.join(folder, f"builder-{r}.txt")
                argv, env, marker = kinds["faro_rows"]
                run(argv, dict(env, LD_PRELOAD=timing_lib, FARO_BUILDER_TIMING=path), marker)
                with open(path) as f:
                    fields = dict(kv.split("=") for kv in f.read().split())
                calls.append(int(fields["builder_calls"]))
                spent.append(float(fields["builder_ms"]))
        print(f"window_faro_builder_calls={statistics.median(calls):.0f}"
              f" window_faro_builder_ms={statistics.median(spent):.2f}")


if __name__ == "__main__":
    main()
