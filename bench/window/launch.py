#!/usr/bin/env python3
"""Launch to first frame and peak resident memory: Faro against the plain C GTK3 window, alternating, same display.

  launch.py ROUNDS CWINDOW -- FARO_COMMAND...

Each round runs, in alternating order, the C window (it quits after its first frame), Faro with
FARO_EXIT_AFTER_FIRST_FRAME=1 (quits after its window's first frame) and Faro with FARO_EXIT_AFTER_FIRST_FRAME=rows
(quits after the first frame that shows beacon rows, which arrive with the first 1 Hz tick). Wall time is spawn to
exit (time.perf_counter around posix_spawn and wait4); peak RSS is the child's ru_maxrss from wait4. One unmeasured
warm-up run of each comes first (disk cache, the accessibility bus). Prints medians as key=value lines.
"""
import os
import signal
import statistics
import sys
import time


def run(argv, extra_env):
    env = dict(os.environ, **extra_env)
    devnull = os.open(os.devnull, os.O_WRONLY)
    t0 = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, env, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
    signal.alarm(30)
    try:
        _, status, usage = os.wait4(pid, 0)
    except TimeoutError:
        os.kill(pid, 9)
        os.wait4(pid, 0)
        raise SystemExit(f"launch.py: {argv[0]} did not quit within 30 s")
    signal.alarm(0)
    elapsed = (time.perf_counter() - t0) * 1000
    os.close(devnull)
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        raise SystemExit(f"launch.py: {' '.join(argv)} failed with status {status}")
    return elapsed, usage.ru_maxrss


def on_alarm(signum, frame):
    raise TimeoutError


def main():
    signal.signal(signal.SIGALRM, on_alarm)
    rounds = int(sys.argv[1])
    cwindow = sys.argv[2]
    faro = sys.argv[sys.argv.index("--") + 1:]
    kinds = {
        "c": ([cwindow], {}),
        "faro": (faro, {"FARO_EXIT_AFTER_FIRST_FRAME": "1"}),
        "faro_rows": (faro, {"FARO_EXIT_AFTER_FIRST_FRAME": "rows"}),
    }
    results = {k: ([], []) for k in kinds}
    for k, (argv, env) in kinds.items():
        run(argv, env)
    for r in range(rounds):
        order = ["c", "faro", "faro_rows"] if r % 2 == 0 else ["faro", "c", "faro_rows"]
        for k in order:
            ms, kb = run(*kinds[k])
            results[k][0].append(ms)
            results[k][1].append(kb)
            print(f"# round {r + 1} {k}: {ms:.1f} ms, {kb} kB", file=sys.stderr)
    med = {k: (statistics.median(v[0]), statistics.median(v[1])) for k, v in results.items()}
    (f_ms, f_kb), (c_ms, c_kb), (r_ms, r_kb) = med["faro"], med["c"], med["faro_rows"]
    t_ratio, m_ratio = f_ms / c_ms, r_kb / c_kb
    print(f"window_first_frame_faro_ms={f_ms:.1f} window_first_frame_c_ms={c_ms:.1f} window_first_frame_ratio={t_ratio:.2f}"
          f" window_first_frame_goal_1_5x={'yes' if t_ratio <= 1.5 else 'no'} window_launch_rounds={rounds}")
    print(f"window_peak_rss_faro_kb={r_kb} window_peak_rss_c_kb={c_kb} window_rss_ratio={m_ratio:.2f}"
          f" window_rss_goal_2x={'yes' if m_ratio <= 2 else 'no'}")
    print(f"window_first_rows_frame_faro_ms={r_ms:.1f} window_peak_rss_faro_first_frame_kb={f_kb}")


if __name__ == "__main__":
    main()
