/* search_certificate.c -- the record stream of a certificate (docs/certificates.md): while one is
 * open, every proven bound or exact value the full search (not a top-K pass) stores in its memo
 * is also appended to a file, as a record of the state's members and the bound.  A state's
 * record is appended before its memo entry is written, and records are appended under a lock,
 * so a bound a thread reads from the memo is in the stream before any record that relies on it:
 * the stream lists every state after the states its proof uses (children before parents), on
 * any number of threads.  The checker (src/jotto/game/proof_check.py) recomputes each record's proof
 * from the word list alone; jotto.game.certificates turns the stream into the certificate file.
 *
 * A record: varint m (targets), varint bound, then the m increasing word indices as varints of
 * their differences (the first from -1, minus one: 0 means "the next index").  Varints are
 * little-endian base 128 (LEB128). */
#include <stdio.h>
#include <stdlib.h>

#include "search_internal.h"

#define CERT_BUF (1 << 20)

struct bs_cert {
    FILE *f;
    int lock;           /* atomic: a thread is appending */
    int failed;         /* a write failed */
    int64_t records;
    size_t n;           /* bytes in buf */
    uint8_t buf[CERT_BUF];
};

static void cert_flush(struct bs_cert *c)
{
    if (c->n && !c->failed && fwrite(c->buf, 1, c->n, c->f) != c->n)
        c->failed = 1;
    c->n = 0;
}

static inline void cert_varint(struct bs_cert *c, uint64_t x)
{
    if (c->n + 10 > CERT_BUF)
        cert_flush(c);
    while (x >= 0x80) {
        c->buf[c->n++] = (uint8_t)(x | 0x80);
        x >>= 7;
    }
    c->buf[c->n++] = (uint8_t)x;
}

void bs_cert_record(jt_bsearch *s, const int32_t *S, int32_t m, uint64_t val)
{
    struct bs_cert *c = s->cert;
    while (__atomic_test_and_set(&c->lock, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(&c->lock, __ATOMIC_RELAXED))
            ;
    cert_varint(c, (uint64_t)m);
    cert_varint(c, val);
    int32_t last = -1;
    for (int32_t k = 0; k < m; k++) {
        cert_varint(c, (uint64_t)(S[k] - last - 1));
        last = S[k];
    }
    c->records++;
    __atomic_clear(&c->lock, __ATOMIC_RELEASE);
}

int jt_bs_cert_open(jt_bsearch *s, const char *path)
{
    if (s->cert || !path)
        return JT_EINVAL;
    struct bs_cert *c = calloc(1, sizeof *c);
    if (!c)
        return JT_ENOMEM;
    if (!(c->f = fopen(path, "wb"))) {
        free(c);
        return JT_EINVAL;
    }
    s->cert = c;
    return JT_OK;
}

int jt_bs_cert_close(jt_bsearch *s, int64_t *records)
{
    struct bs_cert *c = s->cert;
    *records = 0;
    if (!c)
        return JT_EINVAL;
    s->cert = NULL;
    cert_flush(c);
    const int failed = c->failed | (fclose(c->f) != 0);
    *records = c->records;
    free(c);
    return failed ? JT_EINVAL : JT_OK;
}
