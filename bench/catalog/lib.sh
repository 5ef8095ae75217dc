# Shared by bench/catalog/run.sh and bench/catalog-sync/run.sh (sourced, not run).

# The python that runs the helpers (the system one when there is one).
CATALOG_PY=/usr/bin/python3
[ -x "$CATALOG_PY" ] || CATALOG_PY="$(command -v python3)"

# Writes $1 catalog rows of table `catalogo` to load file $2 (groups of 73 rows share one updatedAt, so groups
# straddle page boundaries; stamps carry milliseconds).
catalog_make_rows() {
    "$CATALOG_PY" - "$1" "$2" <<'PYEOF'
import json, sys
n, path = int(sys.argv[1]), sys.argv[2]
rows = []
for i in range(n):
    g = i // 73
    rows.append({"id": "b%06d" % i, "uuid": "fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1", "major": 1000 + i // 1000,
                 "minor": i % 1000, "cliente": "Cliente %d" % i, "titulo": "Título del sitio %d" % i,
                 "url": "https://sitios.example/%d/" % i,
                 "updatedAt": "2020-%02d-%02dT%02d:%02d:00.250Z" % (1 + g // 40320, 1 + (g // 1440) % 28,
                                                                      (g // 60) % 24, g % 60)})
json.dump({"catalogo": rows}, open(path, "w"), ensure_ascii=False)
PYEOF
}

# Runs a command and prints its output, then "MEASURE seconds max_rss_kb" (wall time and peak resident memory of
# that process).
catalog_measure() {
    "$CATALOG_PY" - "$@" <<'PYEOF'
import resource, subprocess, sys, time
t0 = time.perf_counter()
r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE)
dt = time.perf_counter() - t0
if r.returncode != 0:
    sys.exit("failed: %s" % " ".join(sys.argv[1:]))
sys.stdout.buffer.write(r.stdout)
print("\nMEASURE %.4f %d" % (dt, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
PYEOF
}

# Turns faro-backend's --request-log lines ("GET /tables/...") from line $2 on of file $1 into a curl --config for
# base URL $3: one url and output line pair per request.
catalog_curl_config() {
    tail -n "+$2" "$1" | sed -n "s|^GET \(/tables/.*\)\$|url = \"$3\1\"\noutput = \"/dev/null\"|p"
}
