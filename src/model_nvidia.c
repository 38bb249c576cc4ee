/* nvidia[:size=32,idle=16,life=32] — seed 000's rules for an NVIDIA GPU, found by probing:
 *  - slots are written in order, from slot 0 to the last;
 *  - if a primitive's misses would write past the end, the cache is cleared and
 *    all of its unique vertices become misses, placed from slot 0;
 *  - a slot is invalid once `idle` primitives have passed since its last use, or
 *    `life` primitives since its insertion, whatever its use;
 *  - an invalid slot is neither matched nor rewritten until the next reset;
 *  - lifetimes count primitives, for points, lines and triangles alike.
 * "Passed" follows the seed's worked examples: a slot inserted by primitive p is
 * unusable for primitive p + life (the 33rd (5,5,5) misses) and a slot last used
 * by primitive p is unusable for primitive p + idle (1 and 2 by the 17th triangle).
 * See docs/models/nvidia.md.
 *
 * Implementation: each vertex remembers (epoch, slot) of its latest insertion; an
 * epoch is the time between two resets. Within an epoch a slot is written once, so
 * a lookup is O(1): the remembered slot, if of this epoch and still valid. */
#include "internal.h"

#include <stdlib.h>

typedef struct nvidia_state {
    uint64_t* tag;        /* vertex -> epoch << 16 | slot, 0 = never inserted */
    uint32_t* inserted;   /* slot -> primitive that inserted it */
    uint32_t* last_used;  /* slot -> primitive that last used it */
    uint32_t* vertex;     /* slot -> vertex (for traces) */
    uint64_t epoch;
    uint32_t next;        /* next slot to write */
} nvidia_state;

static inline bool slot_valid(const nvidia_state* s, uint32_t slot, uint32_t prim, uint32_t idle, uint32_t life)
{
    return (idle == 0 || prim - s->last_used[slot] < idle) && (life == 0 || prim - s->inserted[slot] < life);
}

gc_status gc_model_nvidia_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err)
{
    const uint32_t size = m->p[0], idle = m->p[1], life = m->p[2];
    nvidia_state s = {0};
    s.tag = gc_alloc_array(run->vertex_count, sizeof(uint64_t), true);
    s.inserted = gc_alloc_array(size, sizeof(uint32_t), true);
    s.last_used = gc_alloc_array(size, sizeof(uint32_t), true);
    s.vertex = gc_alloc_array(size, sizeof(uint32_t), true);
    int64_t* line = run->trace ? gc_alloc_array(size, sizeof(int64_t), false) : NULL;
    gc_status status = GC_OK;
    if (!s.tag || !s.inserted || !s.last_used || !s.vertex || (run->trace && !line)) {
        status = gc_fail(err, GC_ERR_NOMEM, "nvidia: out of memory for %u vertices", run->vertex_count);
        goto done;
    }
    s.epoch = 1;
    uint64_t invocations = 0, resets = 0;
    gc_chunker chunker;
    gc_chunk chunk;
    gc_chunker_init(&chunker, &run->draw, false);
    while (gc_chunker_next(&chunker, &chunk)) {
        for (size_t p = 0; p < chunk.count; ++p) {
            /* Primitive numbers fit 32 bits: there are fewer than GC_MAX_INDICES. */
            const uint32_t prim = (uint32_t)(chunk.first_primitive + p);
            uint32_t unique[4];
            int32_t hit_slot[4];
            unsigned count = gc_unique_vertices(chunk.vertices + p * chunk.arity, chunk.arity, unique);
            unsigned misses = 0;
            for (unsigned j = 0; j < count; ++j) {
                uint64_t tag = s.tag[unique[j]];
                uint32_t slot = (uint32_t)(tag & 0xffff);
                if ((tag >> 16) == s.epoch && slot_valid(&s, slot, prim, idle, life)) {
                    hit_slot[j] = (int32_t)slot;
                } else {
                    hit_slot[j] = -1;
                    misses++;
                }
            }
            if (s.next + misses > size) {
                /* Overflow: clear everything and start again from slot 0. */
                s.epoch++;
                s.next = 0;
                resets++;
                for (unsigned j = 0; j < count; ++j)
                    hit_slot[j] = -1;
            }
            for (unsigned j = 0; j < count; ++j) {
                if (hit_slot[j] >= 0) {
                    s.last_used[hit_slot[j]] = prim;
                    continue;
                }
                uint32_t slot = s.next++;
                s.tag[unique[j]] = s.epoch << 16 | slot;
                s.inserted[slot] = s.last_used[slot] = prim;
                s.vertex[slot] = unique[j];
                invocations++;
                if (run->per_vertex)
                    run->per_vertex[unique[j]]++;
            }
            if (run->trace) {
                /* What the next primitive can match, in slot order: what seed 000's probe reads back. */
                size_t k = 0;
                for (uint32_t slot = 0; slot < s.next; ++slot)
                    if (slot_valid(&s, slot, prim + 1, idle, life))
                        line[k++] = s.vertex[slot];
                gc_run_trace(run, prim, line, k);
            }
        }
    }
    out->invocations = invocations;
    out->resets = resets;
    out->has_batches = 0;
done:
    free(s.tag);
    free(s.inserted);
    free(s.last_used);
    free(s.vertex);
    free(line);
    return status;
}
