// SPDX-License-Identifier: MIT
/* Two orders of nv-dx or nv-gl's default, raced (order_race.c, issue 33 item 2): the flushed
 * Forsyth order (the leader, gc_opt_forsyth_flush_kerbl_race) posts its invocations at 50%,
 * 55%, ..., 95% of the triangles as it emits them; Kerbl's batch greedy (the chaser,
 * gc_opt_batch_greedy_kerbl_race) compares its own count at each of those marks and gives
 * up where it trails by more than GC_RACE_MARGIN_PERMILLE per mille: that order would not
 * have been kept. Both counts are exact (the rule's step as each order is emitted); the stop
 * is a forecast that the chaser will not catch up (docs/optimizers/auto.md, "The batch greedy
 * stopped where it trails"). The marks depend on the counts alone, never on timing: the
 * chaser waits for a mark the leader has not reached, so the outcome is the same for every
 * thread count. The leader must be started before the chaser waits (auto hands it out
 * first) and must end with gc_order_race_finish whatever happens, or the chaser waits on. */
#ifndef GPUCACHE_ORDER_RACE_H
#define GPUCACHE_ORDER_RACE_H

#include "optimize.h"

#include <pthread.h>

#define GC_RACE_MARKS 10            /* at 50%, 55%, ..., 95% of the triangles */
#define GC_RACE_MARGIN_PERMILLE 2   /* the batch greedy stops when above the flushed order by more than 0.2% */
#define GC_RACE_MIN_TRIANGLES 32768 /* smaller lists are not raced (their counts are noisier, their time small) */
/* From GC_FLUSH_FINE_TRIANGLES the roles turn: the batch greedy leads, and the flushed order
 * with the batch greedy's tail (gc_opt_flush_batch_tail_race) gives up where its head is more
 * than 1% above (the tail can take back about a fifth of a point: flush_tail.c). */
#define GC_RACE_TAIL_MARGIN_PERMILLE 10

typedef struct gc_order_race {
    size_t at[GC_RACE_MARKS];        /* mark k: after this many triangles */
    uint64_t leader[GC_RACE_MARKS];  /* the leader's invocations there (posted[k]) */
    bool posted[GC_RACE_MARKS];
    bool finished;                   /* the leader has ended: no more marks come */
    bool batch_leads;                /* the batch greedy posts and the flushed order chases */
    unsigned margin_permille;        /* the chaser gives up above the leader by more than this */
    pthread_mutex_t lock;
    pthread_cond_t moved;
} gc_order_race;

/* A race over a list of triangle_count triangles (GC_RACE_MIN_TRIANGLES or more: the marks
 * are distinct), the flushed order leading below GC_FLUSH_FINE_TRIANGLES and the batch greedy
 * from there. GC_ERR_NOMEM where the lock cannot be made; else gc_order_race_free after. */
gc_status gc_order_race_init(gc_order_race* race, size_t triangle_count, gc_error* err);
void gc_order_race_free(gc_order_race* race);

/* The leader's count at mark k. */
void gc_order_race_post(gc_order_race* race, unsigned k, uint64_t invocations);
/* The leader has ended (also when it failed). */
void gc_order_race_finish(gc_order_race* race);

/* Whether the chaser, at `invocations` after race->at[k] triangles, gives up: more than the
 * margin above the leader's count there. Waits for the leader's mark; false when the leader
 * ended without it. */
bool gc_order_race_trails(gc_order_race* race, unsigned k, uint64_t invocations);

/* gc_opt_forsyth_flush_kerbl, posting its counts to `race` (NULL: none) at its marks, where
 * it leads (below GC_FLUSH_FINE_TRIANGLES); it does not finish the race (its caller does,
 * whatever the status). */
gc_status gc_opt_forsyth_flush_kerbl_race(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                          const gc_forsyth_scores* scores, const gc_flush_rule* rule,
                                          const gc_model* target, gc_order_race* race, uint32_t* order,
                                          uint64_t* invocations, gc_error* err);

/* gc_opt_batch_greedy_kerbl, giving up where gc_order_race_trails says (race NULL: never),
 * or where it leads (race->batch_leads) posting its counts at the marks (its caller finishes
 * the race). *placed: the triangles of `order` written (triangle_count: a whole order,
 * *invocations its count; fewer: it gave up). */
gc_status gc_opt_batch_greedy_kerbl_race(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                         const gc_model* target, const gc_batch_greedy_weights* weights,
                                         gc_order_race* race, uint32_t* order, uint64_t* invocations, size_t* placed,
                                         gc_error* err);

/* gc_opt_flush_batch_tail (forsyth_flush.h) chasing the batch greedy in `race` (NULL: none)
 * over its flushed head; *invocations its count (the head's and the tail's, which opens a
 * batch of its own); *gave_up true where it gave up, `order` then not a whole order. */
gc_status gc_opt_flush_batch_tail_race(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                       const gc_flush_rule* rule, const gc_model* target, gc_order_race* race,
                                       uint32_t* order, uint64_t* invocations, bool* gave_up, gc_error* err);

#endif
