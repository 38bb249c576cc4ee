// SPDX-License-Identifier: MIT
/* Triangles as keys: a triangle up to rotation and its hash, for the tables of
 * triangles of the OBJ writer and the optimizers' permutation check. */
#include "internal.h"

int gc_triangle_canonical(const uint32_t* t, uint32_t out[3])
{
    int best = 0;
    for (int r = 1; r < 3; ++r)
        for (int k = 0; k < 3; ++k) {
            uint32_t x = t[(r + k) % 3], y = t[(best + k) % 3];
            if (x != y) {
                if (x < y)
                    best = r;
                break;
            }
        }
    for (int k = 0; k < 3; ++k)
        out[k] = t[(best + k) % 3];
    return best;
}

uint64_t gc_triangle_hash(const uint32_t* t)
{
    uint64_t h = (uint64_t)t[0] * 0x9E3779B97F4A7C15ULL;
    h ^= ((uint64_t)t[1] + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= ((uint64_t)t[2] + 0x85EBCA77C2B2AE63ULL) * 0x165667B19E3779F9ULL;
    return h ^ (h >> 29);
}
