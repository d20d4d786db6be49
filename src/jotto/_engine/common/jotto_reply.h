/* jotto_reply.h -- letters in place between two spellings (one letter per byte, as
 * jt_words_new_rules takes them): the one definition the tree builder, the kernels and the
 * best-response search share. */
#ifndef JOTTO_REPLY_H
#define JOTTO_REPLY_H

#include <stdint.h>

/* Bit 7 of every byte of ``place`` where the spellings sg and st hold the same letter: the zero
 * bytes of their XOR (adding 0x7f to a byte's low seven bits sets bit 7 unless they are 0). */
static inline uint64_t jt_same_letters(uint64_t sg, uint64_t st, uint64_t place)
{
    const uint64_t x = sg ^ st, low7 = 0x7f7f7f7f7f7f7f7fu;
    return ~(((x & low7) + low7) | x) & place;
}

#endif
