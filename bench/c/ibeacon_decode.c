/*
 * The plain C reference for `make bench`: decodes every iBeacon of every advertisement in a corpus file with the
 * same acceptance rules as Faro's production decode path (AdvertisementDecoder.forEachBeacon in
 * Sources/FaroCore/Advertisement/, which IBeaconDecoder and HCIEventParser implement) and prints the same two
 * lines as `faro bench decode FILE`:
 *
 *   adverts_per_s=<float> ns_per_advert=<float>
 *   valid=<n> beacons=<n> major_sum=<n> minor_sum=<n> tx_sum=<n> uuid_xor=<32 hex> rssi_sum=<n> address_xor=<12 hex>
 *
 * `valid` counts advertisements holding at least one iBeacon, `beacons` the iBeacons in all; the sums and the XORs
 * run over every iBeacon (RSSI and address come with HCI events: the RSSI sum leaves out 127, "not available", the
 * address XOR is of the 48-bit addresses). The bench script fails when the two summary lines differ.
 *
 * Corpus: one advertisement per line, hex; an empty line is an empty advertisement. With --kind ad (default) a
 * line is raw AD structures, with --kind hci a whole HCI LE Advertising Report event (`04 3e ...`). The file is
 * parsed into one buffer with offsets before timing; only the decode loop is timed, in CPU time of the thread
 * (CLOCK_THREAD_CPUTIME_ID, as `faro bench decode`: on a shared machine, time spent descheduled is not the decoder's),
 * median of the repetitions.
 *
 * AD rules (every iBeacon counts):
 * - walk AD structures `length | type | data[length - 1]`; a zero length byte is an empty structure, skipped
 *   (zero padding in the middle of concatenated advertising and scan response data);
 * - a structure longer than the bytes left stops the walk; the advertisement is rejected if no iBeacon came
 *   before it;
 * - an iBeacon is a structure of type 0xFF whose data is `4c 00 02 15` followed by at least 21 bytes
 *   (UUID 16, major 2 BE, minor 2 BE, measured power 1 signed); further bytes in the structure are ignored;
 * - flags are not required; data longer than 31 bytes is walked to its end.
 * HCI rules: the `04` indicator is optional; the event code must be 0x3e, the parameter length no more than the
 * bytes that follow (more is ignored), the subevent 0x02 (legacy) or 0x0d (extended), 1 to 25 reports, read one
 * after another; a report's data length may exceed 31 up to what the event holds, never beyond it. Any violation
 * rejects the whole event before a report is decoded.
 *
 * Build: cc -O2 -o ibeacon_decode ibeacon_decode.c
 * Usage: ibeacon_decode FILE [--kind ad|hci] [--repeat N] [--accepted OUT]
 *   --accepted OUT  also writes one line per advertisement to OUT, 1 when it holds an iBeacon, else 0 (after
 *                   timing; the bench uses it to list where beacontools' rules differ)
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    long long valid;
    long long beacons;
    long long major_sum;
    long long minor_sum;
    long long tx_sum;
    uint8_t uuid_xor[16];
    long long rssi_sum;
    uint64_t address_xor;
} summary;

static inline void add_beacon(summary *s, const uint8_t *d) {
    /* d points at `4c 00 02 15`; UUID at d + 4, major d + 20, minor d + 22, power d + 24. */
    s->beacons++;
    s->major_sum += (d[20] << 8) | d[21];
    s->minor_sum += (d[22] << 8) | d[23];
    s->tx_sum += (int8_t)d[24];
    for (int k = 0; k < 16; k++) s->uuid_xor[k] ^= d[4 + k];
}

/* Adds every iBeacon in the AD structures p[0..n) to *s; returns how many there were. Reads nothing past p + n. */
static inline int ad_beacons(const uint8_t *p, size_t n, summary *s) {
    size_t offset = 0;
    int found = 0;
    while (offset < n) {
        size_t length = p[offset];
        if (length == 0) { /* zero padding: an empty structure */
            offset++;
            continue;
        }
        size_t available = n - offset - 1;
        if (length > available) break; /* cut off: what came before it counts */
        /* Structure: type at offset + 1, data at offset + 2 .. offset + 1 + length (length - 1 bytes). */
        if (p[offset + 1] == 0xFF && length >= 26) {
            const uint8_t *d = p + offset + 2;
            if (d[0] == 0x4C && d[1] == 0x00 && d[2] == 0x02 && d[3] == 0x15) {
                add_beacon(s, d);
                found++;
            }
        }
        offset += 1 + length;
    }
    return found;
}

/* Checks an HCI LE Advertising Report event; when it is well formed and deliver is set, adds the iBeacons of every
 * report to *s. Returns the iBeacons found, or -1 for a malformed event. Reads nothing past p + n. */
static int hci_reports(const uint8_t *p, size_t n, summary *s, int deliver) {
    size_t o = 0;
    if (n < 2) return -1;
    if (p[0] == 0x04) o = 1;
    else if (p[0] != 0x3E) return -1;
    if (n < o + 4 || p[o] != 0x3E) return -1;
    size_t declared = p[o + 1];
    if (declared > n - o - 2) return -1;
    size_t end = o + 2 + declared;
    uint8_t subevent = p[o + 2];
    if (subevent != 0x02 && subevent != 0x0D) return -1;
    if (end < o + 4) return -1;
    size_t count = p[o + 3];
    if (count < 1 || count > 25) return -1;
    size_t r = o + 4;
    int found = 0;
    for (size_t i = 0; i < count; i++) {
        size_t header = subevent == 0x0D ? 24 : 10, length, data;
        if (r + header > end) return -1;
        if (subevent == 0x0D) {
            length = p[r + 23];
            data = r + 24;
        } else {
            length = p[r + 8];
            data = r + 9;
        }
        if (length > end - (r + header)) return -1;
        if (deliver) {
            int n = ad_beacons(p + data, length, s);
            if (n > 0) {
                /* Address: 6 little-endian bytes after event type and address type; RSSI after the data. */
                uint64_t address = 0;
                for (int k = 5; k >= 0; k--) address = address << 8 | p[r + 2 + k];
                int8_t rssi = (int8_t)p[subevent == 0x0D ? r + 13 : data + length];
                for (int k = 0; k < n; k++) {
                    if (rssi != 127) s->rssi_sum += rssi;
                    s->address_xor ^= address;
                }
            }
            found += n;
        }
        r += header + length;
    }
    return found;
}

/* The iBeacons of one advertisement of the given kind (0 ad, 1 hci), added to *s; 0 when it holds none. */
static inline int advert_beacons(int hci, const uint8_t *p, size_t n, summary *s) {
    if (!hci) return ad_beacons(p, n, s);
    if (hci_reports(p, n, s, 0) < 0) return 0; /* a malformed event delivers nothing */
    return hci_reports(p, n, s, 1);
}

__attribute__((noinline)) static summary decode_all(int hci, const uint8_t *bytes, const size_t *starts,
                                                    size_t count) {
    summary s;
    memset(&s, 0, sizeof s);
    for (size_t i = 0; i < count; i++) {
        if (advert_beacons(hci, bytes + starts[i], starts[i + 1] - starts[i], &s) > 0) s.valid++;
    }
    return s;
}

static int nibble(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void *must_alloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "ibeacon_decode: out of memory\n");
        exit(1);
    }
    return p;
}

int main(int argc, char **argv) {
    const char *path = NULL;
    const char *accepted_path = NULL;
    long repeats = 7;
    int hci = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
            char *end;
            repeats = strtol(argv[++i], &end, 10);
            if (*end || repeats < 1 || repeats > 1000) {
                fprintf(stderr, "ibeacon_decode: --repeat wants 1...1000\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--kind") == 0 && i + 1 < argc) {
            const char *kind = argv[++i];
            if (strcmp(kind, "ad") == 0) hci = 0;
            else if (strcmp(kind, "hci") == 0) hci = 1;
            else {
                fprintf(stderr, "ibeacon_decode: --kind wants ad or hci\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--accepted") == 0 && i + 1 < argc) {
            accepted_path = argv[++i];
        } else if (!path) {
            path = argv[i];
        } else {
            fprintf(stderr, "usage: ibeacon_decode FILE [--kind ad|hci] [--repeat N] [--accepted OUT]\n");
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "usage: ibeacon_decode FILE [--kind ad|hci] [--repeat N] [--accepted OUT]\n");
        return 2;
    }

    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "ibeacon_decode: cannot read corpus %s: %s\n", path, strerror(errno));
        return 1;
    }
    if (fseek(f, 0, SEEK_END) != 0) {
        fprintf(stderr, "ibeacon_decode: cannot seek %s\n", path);
        return 1;
    }
    long size = ftell(f);
    if (size < 0) {
        fprintf(stderr, "ibeacon_decode: cannot size %s\n", path);
        return 1;
    }
    rewind(f);
    char *text = must_alloc((size_t)size);
    if (fread(text, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "ibeacon_decode: short read on %s\n", path);
        return 1;
    }
    fclose(f);

    /* At most size / 2 bytes, at most one advertisement per byte of text plus one. */
    uint8_t *bytes = must_alloc((size_t)size / 2 + 1);
    size_t *starts = must_alloc(((size_t)size + 2) * sizeof *starts);
    size_t nbytes = 0, count = 0, line = 1;
    int high = -1;
    starts[0] = 0;
    for (long i = 0; i < size; i++) {
        int c = (unsigned char)text[i];
        if (c == '\n') {
            if (high >= 0) {
                fprintf(stderr, "%s: line %zu: odd number of hex digits\n", path, line);
                return 1;
            }
            starts[++count] = nbytes;
            line++;
            continue;
        }
        if (c == '\r') continue;
        int v = nibble(c);
        if (v < 0) {
            fprintf(stderr, "%s: line %zu: '%c' is not a hex digit\n", path, line, c);
            return 1;
        }
        if (high >= 0) {
            bytes[nbytes++] = (uint8_t)(high << 4 | v);
            high = -1;
        } else {
            high = v;
        }
    }
    if (high >= 0) {
        fprintf(stderr, "%s: line %zu: odd number of hex digits\n", path, line);
        return 1;
    }
    /* A last line without a newline (same rule as `faro bench decode`). */
    if (nbytes != starts[count]) starts[++count] = nbytes;
    free(text);

    double *times = must_alloc((size_t)repeats * sizeof *times);
    summary s, first;
    memset(&first, 0, sizeof first);
    for (long r = 0; r < repeats; r++) {
        double t0 = now_seconds();
        s = decode_all(hci, bytes, starts, count);
        times[r] = now_seconds() - t0;
        if (r == 0) {
            first = s;
        } else if (memcmp(&first, &s, sizeof s) != 0) {
            fprintf(stderr, "ibeacon_decode: repetitions disagree\n");
            return 1;
        }
    }
    qsort(times, (size_t)repeats, sizeof *times, compare_doubles);
    double median = times[repeats / 2];
    double n = count > 0 ? (double)count : 1.0;
    printf("adverts_per_s=%.1f ns_per_advert=%.3f\n", n / median, median * 1e9 / n);
    printf("valid=%lld beacons=%lld major_sum=%lld minor_sum=%lld tx_sum=%lld uuid_xor=", s.valid, s.beacons,
           s.major_sum, s.minor_sum, s.tx_sum);
    for (int k = 0; k < 16; k++) printf("%02x", s.uuid_xor[k]);
    printf(" rssi_sum=%lld address_xor=%012llx\n", s.rssi_sum, (unsigned long long)s.address_xor);
    if (accepted_path) {
        FILE *out = fopen(accepted_path, "w");
        if (!out) {
            fprintf(stderr, "ibeacon_decode: cannot write %s: %s\n", accepted_path, strerror(errno));
            return 1;
        }
        summary scratch;
        memset(&scratch, 0, sizeof scratch);
        for (size_t i = 0; i < count; i++) {
            fputs(advert_beacons(hci, bytes + starts[i], starts[i + 1] - starts[i], &scratch) > 0 ? "1\n" : "0\n",
                  out);
        }
        if (fclose(out) != 0) {
            fprintf(stderr, "ibeacon_decode: cannot write %s\n", accepted_path);
            return 1;
        }
    }
    free(times);
    free(bytes);
    free(starts);
    return 0;
}
