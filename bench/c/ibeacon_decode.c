/*
 * The plain C reference for `make bench`: decodes the first iBeacon of every advertisement in a corpus file with
 * the same acceptance rules as Faro's IBeaconDecoder (Sources/FaroCore/Advertisement/IBeaconDecoder.swift) and
 * prints the same two lines as `faro bench decode FILE`:
 *
 *   adverts_per_s=<float> ns_per_advert=<float>
 *   valid=<n> major_sum=<n> minor_sum=<n> tx_sum=<n> uuid_xor=<32 hex>
 *
 * Corpus: one advertisement per line, hex of the raw AD structures; an empty line is an empty advertisement.
 * The file is parsed into one buffer with offsets before timing; only the decode loop is timed (CLOCK_MONOTONIC,
 * median of the repetitions).
 *
 * Rules (first iBeacon wins):
 * - walk AD structures `length | type | data[length - 1]`; a zero length byte ends the data;
 * - a structure longer than the bytes left stops the walk (no iBeacon found before it: rejected);
 * - an iBeacon is a structure of type 0xFF whose data is `4c 00 02 15` followed by at least 21 bytes
 *   (UUID 16, major 2 BE, minor 2 BE, measured power 1 signed); further bytes in the structure are ignored;
 * - flags are not required; data longer than 31 bytes is walked to its end.
 *
 * Build: cc -O2 -o ibeacon_decode ibeacon_decode.c
 * Usage: ibeacon_decode FILE [--repeat N] [--accepted OUT]
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
    uint8_t uuid[16];
    uint16_t major;
    uint16_t minor;
    int8_t power;
} ibeacon;

typedef struct {
    long long valid;
    long long major_sum;
    long long minor_sum;
    long long tx_sum;
    uint8_t uuid_xor[16];
} summary;

/* Returns 1 and fills *out with the first iBeacon in p[0..n), 0 when there is none. Reads nothing past p + n. */
static int first_ibeacon(const uint8_t *p, size_t n, ibeacon *out) {
    size_t offset = 0;
    while (offset < n) {
        size_t length = p[offset];
        if (length == 0) return 0;
        size_t available = n - offset - 1;
        if (length > available) return 0;
        /* Structure: type at offset + 1, data at offset + 2 .. offset + 1 + length (length - 1 bytes). */
        if (p[offset + 1] == 0xFF && length >= 26) {
            const uint8_t *d = p + offset + 2;
            if (d[0] == 0x4C && d[1] == 0x00 && d[2] == 0x02 && d[3] == 0x15) {
                memcpy(out->uuid, d + 4, 16);
                out->major = (uint16_t)((d[20] << 8) | d[21]);
                out->minor = (uint16_t)((d[22] << 8) | d[23]);
                out->power = (int8_t)d[24];
                return 1;
            }
        }
        offset += 1 + length;
    }
    return 0;
}

__attribute__((noinline)) static summary decode_all(const uint8_t *bytes, const size_t *starts, size_t count) {
    summary s;
    memset(&s, 0, sizeof s);
    ibeacon b;
    for (size_t i = 0; i < count; i++) {
        if (first_ibeacon(bytes + starts[i], starts[i + 1] - starts[i], &b)) {
            s.valid++;
            s.major_sum += b.major;
            s.minor_sum += b.minor;
            s.tx_sum += b.power;
            for (int k = 0; k < 16; k++) s.uuid_xor[k] ^= b.uuid[k];
        }
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
    clock_gettime(CLOCK_MONOTONIC, &ts);
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
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
            char *end;
            repeats = strtol(argv[++i], &end, 10);
            if (*end || repeats < 1 || repeats > 1000) {
                fprintf(stderr, "ibeacon_decode: --repeat wants 1...1000\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--accepted") == 0 && i + 1 < argc) {
            accepted_path = argv[++i];
        } else if (!path) {
            path = argv[i];
        } else {
            fprintf(stderr, "usage: ibeacon_decode FILE [--repeat N] [--accepted OUT]\n");
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "usage: ibeacon_decode FILE [--repeat N] [--accepted OUT]\n");
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
        s = decode_all(bytes, starts, count);
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
    printf("valid=%lld major_sum=%lld minor_sum=%lld tx_sum=%lld uuid_xor=", s.valid, s.major_sum, s.minor_sum,
           s.tx_sum);
    for (int k = 0; k < 16; k++) printf("%02x", s.uuid_xor[k]);
    printf("\n");
    if (accepted_path) {
        FILE *out = fopen(accepted_path, "w");
        if (!out) {
            fprintf(stderr, "ibeacon_decode: cannot write %s: %s\n", accepted_path, strerror(errno));
            return 1;
        }
        ibeacon b;
        for (size_t i = 0; i < count; i++) {
            fputs(first_ibeacon(bytes + starts[i], starts[i + 1] - starts[i], &b) ? "1\n" : "0\n", out);
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
