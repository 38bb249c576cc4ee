// SPDX-License-Identifier: MIT
/* The race of nv-dx and nv-gl's two default orders (order_race.h): the marks, posted by the
 * leader under a lock and waited for by the chaser. Why it stops where it does: on the 56
 * corpus rows (both targets, stored and shuffled) and four more shuffles of each, the batch
 * greedy's count relative to the flushed order's moves little after half of the list on a
 * mesh of 32,768 triangles or more: on ogre it leads by 1-2% at the start and trails from
 * about 55-70% on, ending 0.9-1.7% above; on igea and stanford-bunny it leads by 0.4-1.3%
 * from half-way to the end; on beetle-alt it trails by 0.3-0.8% all along; subdivided once,
 * every mesh of the corpus has it 0.5-2.7% ahead at every mark. Below 32,768 triangles some
 * rows cross back after half-way (alligator and homer shuffled: a stop at 0.2% above would
 * have lost 0.0-0.3%), and the time there is small, so they are not raced. */
#include "order_race.h"

gc_status gc_order_race_init(gc_order_race* race, size_t triangle_count, gc_error* err)
{
    memset(race, 0, sizeof *race);
    for (unsigned k = 0; k < GC_RACE_MARKS; ++k)
        race->at[k] = triangle_count / 20 * (10 + k) + triangle_count % 20 * (10 + k) / 20;
    race->batch_leads = triangle_count >= GC_FLUSH_FINE_TRIANGLES;
    race->margin_permille = race->batch_leads ? GC_RACE_TAIL_MARGIN_PERMILLE : GC_RACE_MARGIN_PERMILLE;
    if (pthread_mutex_init(&race->lock, NULL))
        return gc_fail(err, GC_ERR_NOMEM, "auto: could not create a lock for its race");
    if (pthread_cond_init(&race->moved, NULL)) {
        pthread_mutex_destroy(&race->lock);
        return gc_fail(err, GC_ERR_NOMEM, "auto: could not create a condition for its race");
    }
    return GC_OK;
}

void gc_order_race_free(gc_order_race* race)
{
    pthread_cond_destroy(&race->moved);
    pthread_mutex_destroy(&race->lock);
}

void gc_order_race_post(gc_order_race* race, unsigned k, uint64_t invocations)
{
    pthread_mutex_lock(&race->lock);
    race->leader[k] = invocations;
    race->posted[k] = true;
    pthread_cond_broadcast(&race->moved);
    pthread_mutex_unlock(&race->lock);
}

void gc_order_race_finish(gc_order_race* race)
{
    pthread_mutex_lock(&race->lock);
    race->finished = true;
    pthread_cond_broadcast(&race->moved);
    pthread_mutex_unlock(&race->lock);
}

bool gc_order_race_trails(gc_order_race* race, unsigned k, uint64_t invocations)
{
    pthread_mutex_lock(&race->lock);
    while (!race->posted[k] && !race->finished)
        pthread_cond_wait(&race->moved, &race->lock);
    const bool posted = race->posted[k];
    const uint64_t leader = race->leader[k];
    pthread_mutex_unlock(&race->lock);
    /* (counts below 2^50: no overflow) */
    return posted && invocations * 1000 > leader * (1000 + race->margin_permille);
}
