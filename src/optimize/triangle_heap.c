// SPDX-License-Identifier: MIT
/* The greedy optimizers' priority queue of triangles (batch_greedy.c, and the bench's
 * restatement of Kerbl et al.'s gbatch, bench/gbatch.c): a binary max-heap on (score, then
 * the lower triangle number) with each triangle's place in it, so that a score can change
 * or a triangle leave in O(log n). */
#include "optimize.h"

static bool above(const gc_triangle_heap* h, uint32_t a, uint32_t b)
{
    return h->score[a] > h->score[b] || (h->score[a] == h->score[b] && a < b);
}

static void swap_places(gc_triangle_heap* h, size_t i, size_t j)
{
    uint32_t a = h->heap[i], b = h->heap[j];
    h->heap[i] = b, h->heap[j] = a;
    h->where[b] = (uint32_t)i, h->where[a] = (uint32_t)j;
}

/* Moves the entry at i up or down to where its score puts it. */
static void sift(gc_triangle_heap* h, size_t i)
{
    while (i > 0 && above(h, h->heap[i], h->heap[(i - 1) / 2])) {
        swap_places(h, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, best = i;
        if (l < h->size && above(h, h->heap[l], h->heap[best]))
            best = l;
        if (r < h->size && above(h, h->heap[r], h->heap[best]))
            best = r;
        if (best == i)
            break;
        swap_places(h, i, best);
        i = best;
    }
}

void gc_triangle_heap_push(gc_triangle_heap* h, uint32_t t)
{
    h->heap[h->size] = t;
    h->where[t] = (uint32_t)h->size;
    sift(h, h->size++);
}

void gc_triangle_heap_rescore(gc_triangle_heap* h, uint32_t t, int32_t delta)
{
    if (delta == 0 || h->where[t] == UINT32_MAX)
        return;
    h->score[t] += delta;
    sift(h, h->where[t]);
}

void gc_triangle_heap_remove(gc_triangle_heap* h, uint32_t t)
{
    size_t i = h->where[t];
    h->size--;
    if (i != h->size) {
        swap_places(h, i, h->size);
        sift(h, i);
    }
    h->where[t] = UINT32_MAX;
}
